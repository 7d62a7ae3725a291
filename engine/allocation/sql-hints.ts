// Allocation hints on SQL stores: where the last allocation of a length in a parent ended, so the
// next one reads the children from there instead of from the parent's start (on PostgreSQL a walk
// over 100,000 children costs ~100 ms; allocations in one parent take turns, so each would pay it).
// A hint (resource, parent, length, next_at, gen) says: at generation `gen`, no free block of
// `length` lies in the parent before `next_at`. Creating objects keeps
// that true; deleting one or moving its address can free space, so those writes raise the
// resource's generation (alloc_gen) in their transaction, and a hint of an older generation is void.
// Only identifiers and constants are written into the text; values are bound.
import type { Dialect } from '../sql/dialect.js';
import { SqlBuilder, type SqlText } from '../sql/sql-builder.js';
import { idParam } from '../sql/id-columns.js';

export const HINT_TABLE = 'alloc_hint';
export const GEN_TABLE = 'alloc_gen';
/** The resources allocations create, each with its generation. */
export const HINTED = ['prefix', 'ip_address'] as const;

/** Migration: the two tables and a generation row per resource (each statement idempotent). */
export function allocationHintStatements(d: Dialect): string[] {
  const q = d.quote;
  const text = (n: number) => d.asciiText(n, false),
    suffix = d.tableOptions;
  const seed = HINTED.map((r) => `('${r}', 0)`).join(', ');
  const [insert, skip] = d.insertSkipping();
  return [
    `CREATE TABLE IF NOT EXISTS ${q(GEN_TABLE)} (${q('resource')} ${text(32)}` +
      ` NOT NULL PRIMARY KEY, ${q('gen')} bigint NOT NULL)${suffix}`,
    `${insert} ${q(GEN_TABLE)} (${q('resource')}, ${q('gen')}) VALUES ${seed}${skip}`,
    `CREATE TABLE IF NOT EXISTS ${q(HINT_TABLE)} (${q('resource')} ${text(32)} NOT NULL, ` +
      `${q('parent')} ${text(40)} NOT NULL, ` +
      `${q('length')} integer NOT NULL, ` +
      `${q('next_at')} ${text(32)} NOT NULL, ${q('gen')} bigint NOT NULL, ` +
      `PRIMARY KEY (${q('resource')}, ${q('parent')}, ${q('length')}))${suffix}`,
  ];
}

/**
 * The resource's generation and the furthest `next_at` of its current hints for the parent at
 * `length` or longer (no free block of a longer length there means none of a shorter one either).
 */
export function readHint(d: Dialect, resource: string, parent: string, length: number): SqlText {
  const q = d.quote;
  return new SqlBuilder(d)
    .emit(
      `SELECT g.${q('gen')} AS gen, (SELECT MAX(h.${q('next_at')}) FROM ${q(HINT_TABLE)} h ` +
        `WHERE h.${q('resource')} = g.${q('resource')} `,
    )
    .emit(`AND h.${q('gen')} = g.${q('gen')} AND h.${q('parent')} = `)
    .param(parent, 'text')
    .emit(` AND h.${q('length')} >= `)
    .param(length, 'integer')
    .emit(`) AS next_at FROM ${q(GEN_TABLE)} g WHERE g.${q('resource')} = `)
    .param(resource, 'text')
    .build();
}

/** Records a hint, only while the resource is still at generation `gen` (else nothing). */
export function saveHint(
  d: Dialect,
  resource: string,
  parent: string,
  length: number,
  nextAt: string,
  gen: number,
): SqlText {
  const q = d.quote;
  const cols = [q('resource'), q('parent'), q('length'), q('next_at'), q('gen')].join(', ');
  return new SqlBuilder(d)
    .emit(`INSERT INTO ${q(HINT_TABLE)} (${cols}) SELECT `)
    .param(resource, 'text')
    .emit(', ')
    .param(parent, 'text')
    .emit(', ')
    .param(length, 'integer')
    .emit(', ')
    .param(nextAt, 'text')
    .emit(`, g.${q('gen')} FROM ${q(GEN_TABLE)} g WHERE g.${q('resource')} = `)
    .param(resource, 'text')
    .emit(` AND g.${q('gen')} = `)
    .param(gen, 'bigint')
    .emit(d.upsert(HINT_TABLE, ['resource', 'parent', 'length'], ['next_at', 'gen'], (_stored, given) => given))
    .build();
}

/** Voids the resource's hints: a write that can free addresses (in its transaction). */
export function raiseGeneration(d: Dialect, resource: string): SqlText {
  const q = d.quote;
  return new SqlBuilder(d)
    .emit(`UPDATE ${q(GEN_TABLE)} SET ${q('gen')} = ${q('gen')} + 1 WHERE ${q('resource')} = `)
    .param(resource, 'text')
    .build();
}

/** Does the stored row hold another address text than `text` (an update that moves it)? */
export function addressMoved(d: Dialect, table: string, field: string, id: string, text: string): SqlText {
  const q = d.quote;
  return new SqlBuilder(d)
    .emit(`SELECT 1 AS moved FROM ${q(table)} WHERE ${q('id')} = `)
    .param(id, idParam(d, table))
    .emit(` AND ${q(field)} <> `)
    .param(text, 'text')
    .build();
}
