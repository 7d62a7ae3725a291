// Allocation hints on SQL stores: where the last allocation of a length in a parent ended, so the
// next one reads the children from there instead of from the parent's start (on PostgreSQL a walk
// over 100,000 children costs ~100 ms; allocations in one parent take turns, so each would pay it).
// A hint (resource, parent, length, next_at, gen) says: at generation `gen`, no free block of
// `length` lies in the parent before `next_at`. Creating objects keeps
// that true; deleting one or moving its address can free space, so those writes raise the
// resource's generation (alloc_gen) in their transaction, and a hint of an older generation is void.
// Only identifiers and constants are written into the text; values are bound.
import type { Dialect } from './dialect.js';
import type { ParamType } from './sql-builder.js';

export const HINT_TABLE = 'alloc_hint';
export const GEN_TABLE = 'alloc_gen';
/** The resources allocations create, each with its generation. */
export const HINTED = ['prefix', 'ip_address'] as const;

/** Migration: the two tables and a generation row per resource (each statement idempotent). */
export function allocationHintStatements(d: Dialect): string[] {
  const q = d.quote;
  const text = (n: number) => (d.name === 'postgres' ? `varchar(${n})` : `varchar(${n}) CHARACTER SET ascii COLLATE ascii_bin`);
  const suffix = d.name === 'postgres' ? '' : ' ENGINE=InnoDB';
  const seed = HINTED.map((r) => `('${r}', 0)`).join(', ');
  return [
    `CREATE TABLE IF NOT EXISTS ${q(GEN_TABLE)} (${q('resource')} ${text(32)} NOT NULL PRIMARY KEY, ${q('gen')} bigint NOT NULL)${suffix}`,
    d.name === 'postgres'
      ? `INSERT INTO ${q(GEN_TABLE)} (${q('resource')}, ${q('gen')}) VALUES ${seed} ON CONFLICT DO NOTHING`
      : `INSERT IGNORE INTO ${q(GEN_TABLE)} (${q('resource')}, ${q('gen')}) VALUES ${seed}`,
    `CREATE TABLE IF NOT EXISTS ${q(HINT_TABLE)} (${q('resource')} ${text(32)} NOT NULL, ${q('parent')} ${text(40)} NOT NULL, ${q('length')} integer NOT NULL, ` +
      `${q('next_at')} ${text(32)} NOT NULL, ${q('gen')} bigint NOT NULL, PRIMARY KEY (${q('resource')}, ${q('parent')}, ${q('length')}))${suffix}`,
  ];
}

export interface HintStatement { readonly sql: string; readonly params: readonly unknown[] }

const ph = (d: Dialect, i: number, type: ParamType) => d.placeholder(i, type);

/**
 * The resource's generation and the furthest `next_at` of its current hints for the parent at
 * `length` or longer (no free block of a longer length there means none of a shorter one either).
 */
export function readHint(d: Dialect, resource: string, parent: string, length: number): HintStatement {
  const q = d.quote;
  const sql = `SELECT g.${q('gen')} AS gen, (SELECT MAX(h.${q('next_at')}) FROM ${q(HINT_TABLE)} h WHERE h.${q('resource')} = g.${q('resource')} ` +
    `AND h.${q('gen')} = g.${q('gen')} AND h.${q('parent')} = ${ph(d, 1, 'text')} AND h.${q('length')} >= ${ph(d, 2, 'integer')}) AS next_at ` +
    `FROM ${q(GEN_TABLE)} g WHERE g.${q('resource')} = ${ph(d, 3, 'text')}`;
  return { sql, params: [parent, length, resource] };
}

/** Records a hint, only while the resource is still at generation `gen` (else nothing). */
export function saveHint(d: Dialect, resource: string, parent: string, length: number, nextAt: string, gen: number): HintStatement {
  const q = d.quote;
  const cols = [q('resource'), q('parent'), q('length'), q('next_at'), q('gen')].join(', ');
  const select = `SELECT ${ph(d, 1, 'text')}, ${ph(d, 2, 'text')}, ${ph(d, 3, 'integer')}, ${ph(d, 4, 'text')}, g.${q('gen')} FROM ${q(GEN_TABLE)} g ` +
    `WHERE g.${q('resource')} = ${ph(d, 5, 'text')} AND g.${q('gen')} = ${ph(d, 6, 'bigint')}`;
  const sql = d.name === 'postgres'
    ? `INSERT INTO ${q(HINT_TABLE)} (${cols}) ${select} ON CONFLICT (${q('resource')}, ${q('parent')}, ${q('length')}) DO UPDATE SET ${q('next_at')} = excluded.${q('next_at')}, ${q('gen')} = excluded.${q('gen')}`
    : `INSERT INTO ${q(HINT_TABLE)} (${cols}) ${select} ON DUPLICATE KEY UPDATE ${q('next_at')} = VALUES(${q('next_at')}), ${q('gen')} = VALUES(${q('gen')})`;
  return { sql, params: [resource, parent, length, nextAt, resource, gen] };
}

/** Voids the resource's hints: a write that can free addresses (in its transaction). */
export function raiseGeneration(d: Dialect, resource: string): HintStatement {
  const q = d.quote;
  return { sql: `UPDATE ${q(GEN_TABLE)} SET ${q('gen')} = ${q('gen')} + 1 WHERE ${q('resource')} = ${ph(d, 1, 'text')}`, params: [resource] };
}

/** Does the stored row hold another address text than `text` (an update that moves it)? */
export function addressMoved(d: Dialect, table: string, field: string, id: string, text: string): HintStatement {
  const q = d.quote;
  return { sql: `SELECT 1 AS moved FROM ${q(table)} WHERE ${q('id')} = ${ph(d, 1, 'uuid')} AND ${q(field)} <> ${ph(d, 2, 'text')}`, params: [id, text] };
}
