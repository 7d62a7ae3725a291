// How a journal record lays out its batch: a run of creates of one resource whose rows have the
// same keys in the same order (a bulk write's rows, a load's batches) is one element,
// `{"rows":<resource>,"keys":[...],"values":[[...],...]}`, each row its values in key order; every
// other op is written as itself. JSON reads back arrays about a third faster than objects whose
// keys it must read on every row, and the record is about half the bytes. Records written before
// this layout (every op as itself) read the same way.
import type { Row, WriteOp } from '../types.js';

/** A run of creates, by columns. */
interface Run {
  readonly rows: string;
  readonly keys: readonly string[];
  readonly values: unknown[][];
}

/**
 * The keys of a row that JSON writes the same way in either layout, or null: a plain object whose
 * values JSON keeps (undefined, functions and symbols are dropped from an object but written as
 * null in a list) and without a `__proto__` key (assigning it back would set the prototype).
 */
function packableKeys(row: Row): string[] | null {
  if (Object.getPrototypeOf(row) !== Object.prototype) return null;
  const keys = Object.keys(row);
  for (const k of keys) {
    const t = typeof row[k];
    if (t === 'undefined' || t === 'function' || t === 'symbol' || k === '__proto__') return null;
  }
  return keys;
}

const sameKeys = (a: readonly string[], b: readonly string[]): boolean => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};

/** A create op with nothing but its op, resource and row (anything more is written as it is). */
const plainCreate = (o: WriteOp): o is Extract<WriteOp, { op: 'create' }> =>
  o.op === 'create' && Object.keys(o).length === 3;

/** The batch as a record holds it: runs of two or more like creates by columns. */
export function packBatch(batch: readonly WriteOp[]): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < batch.length;) {
    const o = batch[i];
    const keys = plainCreate(o) ? packableKeys(o.row) : null;
    let j = i + 1;
    if (keys && o.op === 'create') {
      const values: unknown[][] = [keys.map((k) => o.row[k])];
      for (; j < batch.length; j++) {
        const p = batch[j];
        if (!plainCreate(p) || p.resource !== o.resource) break;
        const k = packableKeys(p.row);
        if (!k || !sameKeys(k, keys)) break;
        values.push(keys.map((name) => p.row[name]));
      }
      if (values.length > 1) {
        out.push({ rows: o.resource, keys, values } satisfies Run);
        i = j;
        continue;
      }
    }
    out.push(o);
    i++;
  }
  return out;
}

/** A run of creates as a record holds it: each element of `values` one row's values in `keys` order. */
export type CreateRun = Run;

/** A record's batch as read: ops, and runs of creates still by columns (checked: `checkBatch`). */
export type PackedBatch = readonly (WriteOp | CreateRun)[];

export const isRun = (x: unknown): x is Run => {
  const r = x as Run;
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof r.rows === 'string' &&
    Array.isArray(r.keys) &&
    Array.isArray(r.values)
  );
};

/**
 * A record's array as a batch whose runs are sound (string keys, none `__proto__`, each row a list
 * of one value per key), or null when an element is neither an op nor such a run. The runs are
 * left by columns: a start stores their rows without making an object per row.
 */
export function checkBatch(items: readonly unknown[]): PackedBatch | null {
  for (const x of items) {
    if (!isRun(x)) continue;
    const { keys, values } = x;
    for (const k of keys) if (typeof k !== 'string' || k === '__proto__') return null;
    for (const v of values) if (!Array.isArray(v) || v.length !== keys.length) return null;
  }
  return items as PackedBatch;
}

/** A checked batch's ops, each run's rows made into create ops. */
export function expandBatch(items: PackedBatch): WriteOp[] {
  let runs = false;
  for (const x of items)
    if (isRun(x)) {
      runs = true;
      break;
    }
  if (!runs) return items as WriteOp[];
  const out: WriteOp[] = [];
  for (const x of items) {
    if (!isRun(x)) {
      out.push(x);
      continue;
    }
    const { rows: resource, keys, values } = x;
    for (const v of values) {
      const row: Record<string, unknown> = {};
      for (let k = 0; k < keys.length; k++) row[keys[k]] = v[k];
      out.push({ op: 'create', resource, row: row as Row });
    }
  }
  return out;
}

/**
 * The batch a record's array holds (runs given back as create ops), or null when an element is
 * neither an op nor a run.
 */
export function unpackBatch(items: readonly unknown[]): WriteOp[] | null {
  const checked = checkBatch(items);
  return checked && expandBatch(checked);
}
