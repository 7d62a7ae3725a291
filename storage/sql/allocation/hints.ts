// Allocation hints on SQL stores (engine/allocation/sql-hints.ts): read and record them for the
// allocation service, and void them from the writes that can free addresses.
import type { AddrHex } from '../../../engine/net/ip.js';
import { addressMoved, HINTED, raiseGeneration, readHint, saveHint } from '../../../engine/allocation/sql-hints.js';
import type { Dialect } from '../../../engine/sql/dialect.js';
import type { TableModel } from '../../../engine/sql/table-model.js';
import type { AllocationHint, NetBlock, Row } from '../../types.js';
import type { SqlSession } from '../driver.js';
import { hintWithMark } from './cover-mark-upkeep.js';

const parentKey = (b: NetBlock) => `${b.network}/${b.length}`;
const hinted = (m: TableModel) => (HINTED as readonly string[]).includes(m.resource.name);

export async function sqlAllocationHint(
  s: SqlSession,
  d: Dialect,
  resource: string,
  block: NetBlock,
  length: number,
): Promise<AllocationHint> {
  const st = readHint(d, resource, parentKey(block), length);
  const row = (await s.query(st.sql, st.params)).rows[0];
  if (!row) throw new Error(`allocation hints: no generation row for ${resource} (migration 7 not applied?)`);
  const hint = { gen: Number(row.gen), nextAt: typeof row.next_at === 'string' ? (row.next_at as AddrHex) : null };
  // A prefix's cover mark (cover-marks.ts) is a hint for every length.
  return resource === 'prefix' ? hintWithMark((sql, params) => s.query(sql, params), d, block, hint) : hint;
}

export async function sqlSaveAllocationHint(
  s: SqlSession,
  d: Dialect,
  resource: string,
  block: NetBlock,
  length: number,
  nextAt: AddrHex,
  gen: number,
): Promise<void> {
  const st = saveHint(d, resource, parentKey(block), length, nextAt, gen);
  await s.query(st.sql, st.params);
}

/** Before a row of a hinted resource is updated: a new address frees the old one. */
export async function beforeUpdate(s: SqlSession, d: Dialect, m: TableModel, row: Row): Promise<void> {
  if (!hinted(m) || !m.net) return;
  const moved = addressMoved(d, m.table, m.net.source, row.id, String(row[m.net.source]));
  if ((await s.query(moved.sql, moved.params)).rows.length === 0) return;
  const st = raiseGeneration(d, m.resource.name);
  await s.query(st.sql, st.params);
}

/** Before a row of a hinted resource is deleted (or every row is). */
export async function beforeDelete(s: SqlSession, d: Dialect, m: TableModel): Promise<void> {
  if (!hinted(m)) return;
  const st = raiseGeneration(d, m.resource.name);
  await s.query(st.sql, st.params);
}
