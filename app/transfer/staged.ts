// Writes staged instead of applied, so that an import's creates and updates (each checked by the Inventory's
// own validation) commit as one batch, all or nothing. The staged Inventory runs over a view of the store
// that holds back `apply` and reads the staged rows over the stored ones (a region's parent created a few
// rows above it in the same file).
import { AsyncLocalStorage } from 'node:async_hooks';
import { Inventory } from '../inventory.js';
import type { ApplyResult, Row, Storage, WriteOp } from '../../storage/types.js';

/** Stored rows a stage remembers at most (then it forgets them all and reads the store again). */
const REMEMBERED = 200_000;

const byKey = (resource: string, field: string, value: string) => `${resource}\u0000${field}\u0000${value}`;

/** What one import has staged: its ops in order, and the rows as they will be, by resource and id. */
export class Stage {
  readonly ops: WriteOp[] = [];
  readonly rows = new Map<string, Map<string, Row | null>>();
  /** Stored rows the import read a batch at a time (ref-lookup.ts), by resource and id, and the stored rows
   * per `resource field value` looked up: the Inventory's checks of each row read them here, not the store. */
  readonly stored = new Map<string, Map<string, Row>>();
  readonly storedBy = new Map<string, readonly Row[]>();
  private remembered = 0;

  remember(resource: string, field: string, values: readonly string[], rows: readonly Row[]): void {
    if (this.remembered > REMEMBERED) {
      this.stored.clear();
      this.storedBy.clear();
      this.remembered = 0;
    }
    let m = this.stored.get(resource);
    if (!m) this.stored.set(resource, (m = new Map()));
    const byValue = new Map<unknown, Row[]>(values.map((v) => [v, []]));
    for (const r of rows) {
      m.set(r.id, r);
      byValue.get(r[field])?.push(r);
    }
    for (const [v, found] of byValue) this.storedBy.set(byKey(resource, field, v as string), found);
    this.remembered += rows.length + values.length;
  }

  add(ops: readonly WriteOp[]): void {
    for (const op of ops) {
      this.ops.push(op);
      let m = this.rows.get(op.resource);
      if (!m) this.rows.set(op.resource, (m = new Map()));
      if (op.op === 'delete') m.set(op.id, null);
      else m.set(op.row.id, op.row);
    }
  }
}

const current = new AsyncLocalStorage<Stage>();

/** A remembered row as a store's read gives it: the caller's own to change (lists and objects copied). */
const fresh = (row: Row): Row =>
  Object.fromEntries(
    Object.entries(row).map(([k, v]) => [
      k,
      Array.isArray(v) ? v.slice() : typeof v === 'object' && v !== null ? { ...v } : v,
    ]),
  ) as Row;

function overlay(storage: Storage): Storage {
  const get = async (resource: string, id: string): Promise<Row | null> => {
    const stage = current.getStore();
    const staged = stage?.rows.get(resource);
    if (staged?.has(id)) return staged.get(id)!;
    const known = stage?.stored.get(resource)?.get(id);
    return known ? fresh(known) : storage.get(resource, id);
  };
  const findBy = async (resource: string, field: string, value: unknown): Promise<Row[]> => {
    const stage = current.getStore();
    const staged = stage?.rows.get(resource);
    const known = typeof value === 'string' ? stage?.storedBy.get(byKey(resource, field, value)) : undefined;
    const stored = known ? [...known] : await storage.findBy(resource, field, value);
    if (!staged) return stored;
    const kept = stored.filter((r) => !staged.has(r.id));
    const has = (r: Row) => (Array.isArray(r[field]) ? (r[field] as unknown[]).includes(value) : r[field] === value);
    for (const r of staged.values()) if (r && has(r)) kept.push(r);
    return kept;
  };
  // One read of the store for the ids not staged (not a read per id).
  const getMany = async (resource: string, ids: readonly string[]): Promise<Row[]> => {
    const staged = current.getStore()?.rows.get(resource);
    if (!staged) return storage.getMany(resource, ids);
    const stored = new Map(
      (
        await storage.getMany(
          resource,
          ids.filter((id) => !staged.has(id)),
        )
      ).map((r) => [r.id, r]),
    );
    return ids.map((id) => (staged.has(id) ? staged.get(id) : stored.get(id))).filter((r): r is Row => !!r);
  };
  const apply = async (ops: readonly WriteOp[]): Promise<ApplyResult> => {
    const stage = current.getStore();
    if (!stage) return storage.apply(ops);
    stage.add(ops);
    return { seq: null };
  };
  const own: Partial<Storage> = { get, findBy, getMany, apply };
  return new Proxy(storage, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && prop in own) return own[prop as keyof Storage];
      const v: unknown = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/** `stored` (what a query of the store found) as the current stage sees it: staged rows over stored ones, and
 * the staged rows that `match`. */
export function stagedOver(resource: string, stored: Row[], match: (r: Row) => boolean): Row[] {
  const staged = current.getStore()?.rows.get(resource);
  if (!staged) return stored;
  const kept = stored.filter((r) => !staged.has(r.id));
  for (const r of staged.values()) if (r && match(r)) kept.push(r);
  return kept;
}

/** Remembers, for the current stage, the stored rows whose `field` is one of `values` (all of them). */
export function remember(resource: string, field: string, values: readonly string[], rows: readonly Row[]): void {
  current.getStore()?.remember(resource, field, values, rows);
}

const staged = new WeakMap<Inventory, Inventory>();

/** The Inventory that stages instead of writing (one per real one, sharing its row policies). */
export function stagingInventory(real: Inventory): Inventory {
  let inv = staged.get(real);
  if (!inv) staged.set(real, (inv = new Inventory(overlay(real.storage), { policies: real.policies })));
  return inv;
}

/** Runs `fn` with its staged writes collected in `stage`. */
export function staging<T>(stage: Stage, fn: () => Promise<T>): Promise<T> {
  return current.run(stage, fn);
}
