// A write batch with its change records appended: the records are written last in the batch (the
// counter row that numbers them is then held for as short a time as possible).
import { CHANGE_RESOURCE, changeRecords } from '../../engine/changes/change-records.js';
import type { ApplyOptions, WriteOp } from '../types.js';
import { changeMeta } from './write-context.js';

export function withChangeRecords(ops: readonly WriteOp[], opts: ApplyOptions = {}): WriteOp[] {
  if (opts.log === false) return [...ops];
  const records = changeRecords(ops, changeMeta());
  return records.length
    ? [...ops, ...records.map((row): WriteOp => ({ op: 'create', resource: CHANGE_RESOURCE, row }))]
    : [...ops];
}
