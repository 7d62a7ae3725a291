// One group of a write batch (consecutive creates of one resource, or one update or delete)
// written in the batch's transaction, with the checks the memory store makes first: a version
// compared, references to an object it deletes, the bookkeeping of address resources
// (allocation hints, cover marks).
import { MSG } from '../../../engine/schema/messages.js';
import { SqlBuilder } from '../../../engine/sql/sql-builder.js';
import { tableModel, type TableModel } from '../../../engine/sql/table-model.js';
import { idParam, isIdOf } from '../../../engine/sql/id-columns.js';
import { StorageConflict, versionOf, type WriteOp } from '../../types.js';
import { beforeDelete, beforeUpdate } from '../allocation/hints.js';
import { afterPrefixCreates, beforePrefixDelete, beforePrefixUpdate } from '../allocation/cover-mark-upkeep.js';
import type { SqlSession } from '../driver.js';
import type { SqlContext } from './context.js';

type Op<K extends WriteOp['op']> = Extract<WriteOp, { op: K }>;

export type Group =
  | { readonly kind: 'create'; readonly m: TableModel; readonly ops: readonly Op<'create'>[] }
  | { readonly kind: 'update'; readonly m: TableModel; readonly op: Op<'update'> }
  | { readonly kind: 'delete'; readonly m: TableModel; readonly op: Op<'delete'> };

/** Consecutive creates on one resource are written together. */
export function groups(ops: readonly WriteOp[]): Group[] {
  const out: Group[] = [];
  for (const op of ops) {
    const m = tableModel(op.resource);
    const last = out[out.length - 1];
    if (op.op === 'create' && last?.kind === 'create' && last.m === m) (last.ops as WriteOp[]).push(op);
    else if (op.op === 'create') out.push({ kind: 'create', m, ops: [op] });
    else if (op.op === 'update') out.push({ kind: 'update', m, op });
    else out.push({ kind: 'delete', m, op });
  }
  return out;
}

/** Writes one group in the transaction `s`; a refused write throws StorageConflict or the database's error. */
export function writeGroup(ctx: SqlContext, s: SqlSession, g: Group): Promise<void> {
  if (g.kind === 'create') return create(ctx, s, g.m, g.ops);
  if (g.kind === 'update') return update(ctx, s, g.m, g.op);
  return remove(ctx, s, g.m, g.op);
}

async function create(ctx: SqlContext, s: SqlSession, m: TableModel, ops: readonly Op<'create'>[]): Promise<void> {
  const { d, writes: w } = ctx.ready();
  const rows = ops.map((o) => o.row);
  for (const st of w.insert(m, rows)) await s.query(st.sql, st.params);
  for (const st of w.insertTags(m, rows)) await s.query(st.sql, st.params);
  await afterPrefixCreates(s, ctx.driver, d, m, rows);
}

async function update(ctx: SqlContext, s: SqlSession, m: TableModel, op: Op<'update'>): Promise<void> {
  const { d, writes: w } = ctx.ready();
  const { row, expectVersion: expect } = op;
  const changed = (v: unknown) => new StorageConflict('version', MSG.versionChanged(v, expect!));
  if (!isIdOf(d, m.resource.name, row.id)) throw new StorageConflict('id', MSG.notFound);
  if (expect !== undefined && !m.byField.has('version'))
    // memory compares an absent version
    throw (await exists(ctx, s, m, row.id)) ? changed(undefined) : new StorageConflict('id', MSG.notFound);
  await beforeUpdate(s, d, m, row);
  const moved = await beforePrefixUpdate(s, d, m, row);
  const st = w.update(m, row, expect);
  if ((await s.query(st.sql, st.params)).rowCount === 0) {
    // No such object, or (compare-and-swap) another version is stored.
    const v = expect === undefined ? null : await storedVersion(ctx, s, m, row.id);
    if (v === null) throw new StorageConflict('id', MSG.notFound);
    throw changed(v);
  }
  if (moved) await afterPrefixCreates(s, ctx.driver, d, m, [row]);
  const del = w.deleteTags(m, row.id);
  if (del) {
    await s.query(del.sql, del.params);
    for (const t of w.insertTags(m, [row])) await s.query(t.sql, t.params);
  }
}

async function remove(ctx: SqlContext, s: SqlSession, m: TableModel, op: Op<'delete'>): Promise<void> {
  const { d, writes: w } = ctx.ready();
  const { id, expectVersion: expect } = op;
  if (!isIdOf(d, m.resource.name, id)) return; // no such object: nothing to delete, as in memory
  // Memory compares the version before it looks for references; the DELETE compares it again.
  const checkVersion = async () => {
    const v = await storedVersion(ctx, s, m, id);
    if (v !== null && v !== expect) throw new StorageConflict('version', MSG.versionChanged(v, expect!));
    return v !== null;
  };
  if (expect !== undefined && !(await checkVersion())) return;
  const check = w.refCheck(m, id);
  if (check) {
    const hit = Number((await s.query(check.stmt.sql, check.stmt.params)).rows[0].hit);
    if (hit >= 0) {
      const h = check.hits[hit];
      throw h.kind === 'tags'
        ? new StorageConflict('tags', MSG.tagAssigned)
        : new StorageConflict(h.field, MSG.referencedBy(h.model.resource.label));
    }
  }
  await beforeDelete(s, d, m);
  await beforePrefixDelete(s, d, m, id);
  const st = w.delete(m, id, expect);
  if ((await s.query(st.sql, st.params)).rowCount === 0 && expect !== undefined) await checkVersion();
}

/** The stored row's version (0 when written without one), or null when there is no such row or version column. */
async function storedVersion(ctx: SqlContext, s: SqlSession, m: TableModel, id: string): Promise<number | null> {
  const rv = ctx.ready().writes.readVersion(m, id);
  const found = rv ? (await s.query(rv.sql, rv.params)).rows[0] : undefined;
  return found ? versionOf({ id, version: ctx.driver.decode(m.byField.get('version')!, found.v) }) : null;
}

async function exists(ctx: SqlContext, s: SqlSession, m: TableModel, id: string): Promise<boolean> {
  const { d } = ctx.ready();
  const one = new SqlBuilder(d)
    .emit(`SELECT 1 AS one FROM ${d.quote(m.table)} WHERE ${d.quote('id')} = `)
    .param(id, idParam(d, m.resource.name))
    .build();
  const r = await s.query(one.sql, one.params);
  return r.rows.length > 0;
}
