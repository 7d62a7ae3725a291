// Which fields of a resource the memory store indexes, and the keys its hash indexes file values
// under (indexed-table.ts builds the indexes).
import type { HashIndex, HashKey } from './hash-index.js';

export const HASHED_KINDS = new Set([
  'uuid',
  'slug',
  'string',
  'choice',
  'fk',
  'integer',
  'boolean',
  'mac',
  'ip',
  'prefix',
  'address',
  'datetime',
]);
export const CI_KINDS = new Set(['slug', 'string', 'mac', 'ip', 'prefix', 'address']);
/** Field kinds with a sorted index, and whether it holds numbers (integers) or text (ISO date-times). */
export const SORTED_KINDS: Readonly<Record<string, { numbers: boolean }>> = {
  integer: { numbers: true },
  datetime: { numbers: false },
};

/** Index keys of a custom field's value (each element of a list); `ci`: strings lower-cased. */
export function cfKeys(customFields: unknown, name: string, ci = false): HashKey[] {
  const v = (customFields as Record<string, unknown> | undefined)?.[name];
  if (v === null || v === undefined) return [];
  const items = Array.isArray(v) ? v : [v];
  const keys = items.filter(
    (x) => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean',
  ) as HashKey[];
  return ci ? keys.map((k) => (typeof k === 'string' ? k.toLowerCase() : k)) : keys;
}

export function lowerKey(v: unknown): HashKey {
  return typeof v === 'string' ? v.toLowerCase() : null;
}

export function hashKey(v: unknown): HashKey {
  return v === undefined || v === null ? null : (v as HashKey);
}

/** An equality question put to a hash index: the index, one key per asked value, and its name for explain. */
export interface Equality {
  readonly idx: HashIndex;
  readonly keys: readonly HashKey[];
  readonly label: string;
}
