// The record of applied migrations (schema_migrations), checked against this build's migrations at
// every start. A migration never changes once it ran: a recorded checksum that differs from this
// build's means the database was built by other statements, and the start is refused naming the
// version. Records an earlier release wrote, recognisable by migration 1's former name, were summed
// over statements computed from the registry of that release (migration 1 made every table the
// registry then had, and versions 4, 6, 13 grew with it): they are accepted once and rewritten.
import { createHash } from 'node:crypto';
import type { Dialect } from '../../../engine/sql/dialect.js';
import { SqlBuilder, type SqlText } from '../../../engine/sql/sql-builder.js';
import { StorageConfigError } from '../../types.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  statements(d: Dialect): string[];
}

/** A row of schema_migrations. */
export interface Recorded {
  readonly version: number;
  readonly name: string;
  readonly checksum: string;
}

export const MIGRATIONS_TABLE = 'schema_migrations';

/** Migration 1's name before it was frozen: the mark of records an earlier release wrote. */
export const FORMER_FIRST_NAME = 'inventory schema derived from the registry';

export const checksum = (statements: readonly string[]): string =>
  createHash('sha256').update(statements.join(';\n')).digest('hex');

/** The records of schema_migrations (run once its table exists). */
export const recordedSql = (d: Dialect): string =>
  `SELECT version, name, checksum FROM ${d.quote(MIGRATIONS_TABLE)} ORDER BY version`;

export const asRecorded = (rows: readonly Record<string, unknown>[]): Recorded[] =>
  rows.map((r) => ({ version: Number(r.version), name: String(r.name), checksum: String(r.checksum) }));

/**
 * The recorded migrations to rewrite with this build's name and checksum (those an earlier release
 * wrote; none afterwards). Throws when a checksum this release wrote differs from this build's.
 * A version this build does not know (a later build migrated the database) is left alone.
 */
export function checkRecorded(recorded: readonly Recorded[], known: readonly Migration[], d: Dialect): Migration[] {
  const earlier = recorded.some((r) => r.version === 1 && r.name === FORMER_FIRST_NAME);
  const rewrite: Migration[] = [];
  for (const r of recorded) {
    const m = known.find((x) => x.version === r.version);
    if (!m) continue;
    if (earlier) rewrite.push(m);
    else if (r.checksum !== checksum(m.statements(d)))
      throw new StorageConfigError(
        `schema migration ${m.version} (${m.name}) was applied with checksum ${r.checksum.slice(0, 12)}…, ` +
          `this build's is ${checksum(m.statements(d)).slice(0, 12)}…: a migration that ran must never change ` +
          `(write a new version); refusing to start`,
      );
  }
  return rewrite;
}

/** The statement recording `m` as applied. */
export function recordSql(d: Dialect, m: Migration): SqlText {
  return new SqlBuilder(d)
    .emit(`INSERT INTO ${d.quote(MIGRATIONS_TABLE)} (version, name, checksum) VALUES (`)
    .param(m.version, 'integer')
    .emit(', ')
    .param(m.name, 'text')
    .emit(', ')
    .param(checksum(m.statements(d)), 'text')
    .emit(')')
    .build();
}

/** The statement rewriting the record of `m` with this build's name and checksum. */
export function rewriteSql(d: Dialect, m: Migration): SqlText {
  return new SqlBuilder(d)
    .emit(`UPDATE ${d.quote(MIGRATIONS_TABLE)} SET name = `)
    .param(m.name, 'text')
    .emit(', checksum = ')
    .param(checksum(m.statements(d)), 'text')
    .emit(' WHERE version = ')
    .param(m.version, 'integer')
    .build();
}
