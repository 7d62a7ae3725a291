// A prefix tree of a given size for the hierarchy view: 10.0.0.0/8, its 256 /16s, 200 /24s in each
// (the rest free) and three /26s under as many /24s as the size needs (the fourth free). Written
// straight into the storage, without change records, as the benchmarks load data.
import type { Storage, WriteOp } from '../../../storage/types.js';
import { prefixRowWith } from '../../../bench/prefix-rows.js';

const idOf = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
export const ROOT_ID = idOf(0);

export function* treePrefixes(total: number): Generator<string> {
  yield '10.0.0.0/8';
  for (let a = 0; a < 256; a++) yield `10.${a}.0.0/16`;
  let left = total - 257;
  for (let a = 0; a < 256 && left > 0; a++) for (let c = 0; c < 200 && left > 0; c++, left--) yield `10.${a}.${c}.0/24`;
  for (let a = 0; a < 256 && left > 0; a++)
    for (let c = 0; c < 200 && left > 0; c++)
      for (let k = 0; k < 3 && left > 0; k++, left--) yield `10.${a}.${c}.${k * 64}/26`;
}

export async function loadTree(storage: Storage, total: number): Promise<void> {
  const now = new Date().toISOString();
  let batch: WriteOp[] = [];
  let i = 0;
  for (const prefix of treePrefixes(total)) {
    const row = prefixRowWith(prefix, { id: idOf(i++), created: now, last_updated: now });
    batch.push({ op: 'create', resource: 'prefix', row });
    if (batch.length === 5000) {
      await storage.apply(batch, { log: false });
      batch = [];
    }
  }
  if (batch.length) await storage.apply(batch, { log: false });
  await storage.afterBulkLoad();
}
