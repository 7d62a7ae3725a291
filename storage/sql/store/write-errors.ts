// A failed write statement mapped to the StorageConflict the memory store gives for the same
// batch, naming the same field: a taken key, a missing reference (and which value), a lost
// database to StorageUnavailable.
import { SqlBuilder } from '../../../engine/sql/sql-builder.js';
import { tableModel } from '../../../engine/sql/table-model.js';
import { idParam, idsOf } from '../../../engine/sql/id-columns.js';
import { StorageConflict, StorageUnavailable, type WriteOp } from '../../types.js';
import { fkConflict, fkOwner, uniqueConflict } from '../conflicts.js';
import type { SqlSession } from '../driver.js';
import type { SqlContext } from './context.js';
import type { Group } from './write-groups.js';

/** writeError's session where there is none (PostgreSQL: no query is made on a failed statement's connection). */
export const NO_SESSION: SqlSession = {
  query: () => Promise.reject(new Error('no session: the statement ran on its own')),
};

type RowGroup = Exclude<Group, { kind: 'delete' }>;

/** A failed write statement -> StorageConflict naming the field, as the memory store would. */
export async function writeError(ctx: SqlContext, e: unknown, g: Group, s: SqlSession): Promise<unknown> {
  if (e instanceof StorageConflict) return e;
  const c = ctx.driver.classify(e);
  if (c.kind === 'unavailable') return new StorageUnavailable(c.message);
  if (c.kind === 'unique') return uniqueConflict(c.constraint) ?? e;
  if (c.kind !== 'fk') return e;
  const op: WriteOp = g.kind === 'create' ? g.ops[0] : g.op;
  if (g.kind === 'delete') return fkConflict(c.constraint, op, null) ?? e;
  const missing = c.value !== null ? { value: c.value, row: 0 } : await missingValue(ctx, s, g, c.constraint);
  // Tags are written after the rows: their rows' keys were taken without a clash.
  const ofRows = fkOwner(c.constraint)?.field !== 'tags';
  return (
    (ofRows ? await keyClashBefore(ctx, s, g, missing?.row ?? 0) : null) ??
    fkConflict(c.constraint, op, missing?.value ?? null) ??
    e
  );
}

/**
 * Memory checks a row's id and unique fields before its references. MySQL 9 checks references
 * first (MariaDB and PostgreSQL after): a row with both a taken key and a missing reference, or a
 * taken key in a row before the one whose reference is missing, is found here by writing the rows
 * up to that one again with reference checks off (undone at once).
 */
async function keyClashBefore(
  ctx: SqlContext,
  s: SqlSession,
  g: RowGroup,
  upTo: number,
): Promise<StorageConflict | null> {
  const { driver } = ctx;
  if (!driver.withoutReferenceChecks) return null;
  const w = ctx.ready().writes;
  const statements =
    g.kind === 'create'
      ? w.insert(
          g.m,
          g.ops.slice(0, upTo + 1).map((o) => o.row),
        )
      : [w.update(g.m, g.op.row, g.op.expectVersion)];
  return driver.withoutReferenceChecks(s, async (): Promise<StorageConflict | null> => {
    try {
      for (const st of statements) await s.query(st.sql, st.params);
      return null;
    } catch (e) {
      const c = driver.classify(e);
      return c.kind === 'unique' ? uniqueConflict(c.constraint) : null;
    }
  });
}

/** The first referenced id of the failed rows that does not exist, and its row (MySQL errors do not say). */
async function missingValue(
  ctx: SqlContext,
  s: SqlSession,
  g: RowGroup,
  constraint: string,
): Promise<{ value: string; row: number } | null> {
  const owner = fkOwner(constraint);
  if (!owner) return null;
  const rows = g.kind === 'create' ? g.ops.map((o) => o.row) : [g.op.row];
  const candidates = rows.flatMap((r, row) =>
    (owner.field === 'tags' ? ((r.tags as string[] | undefined) ?? []) : [r[owner.field] as string])
      .filter((value): value is string => typeof value === 'string')
      .map((value) => ({ value, row })),
  );
  if (!candidates.length) return null;
  if (!ctx.driver.withoutReferenceChecks) return candidates[0]; // the transaction is aborted: no queries
  try {
    const { d } = ctx.ready();
    const b = new SqlBuilder(d).emit(
      `SELECT ${d.quote('id')} AS id FROM ${d.quote(tableModel(owner.target).table)} WHERE `,
    );
    const ids = idsOf(
      d,
      owner.target,
      candidates.map((c) => c.value),
    );
    // A text that is no id of the target's names no row: the first such candidate is the missing one.
    if (ids.length < new Set(candidates.map((c) => c.value)).size)
      return candidates.find((c) => !ids.includes(c.value))!;
    d.inList(b, d.quote('id'), ids, idParam(d, owner.target));
    const st = b.build();
    const found = new Set((await s.query(st.sql, st.params)).rows.map((r) => String(r.id)));
    return candidates.find((c) => !found.has(c.value)) ?? null;
  } catch {
    return candidates[0];
  }
}
