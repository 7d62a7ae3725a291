// PostgreSQL's DDL members: column types, statements that add a column, index or foreign key unless
// it is there, the trigram substring index, and the stores' own tables.
import type { Dialect } from '../dialect.js';
import type { ValueClass } from '../table-model.js';
import { postgresNetIndexes } from './postgres-net.js';
import { quote, sqlString } from './postgres-quoting.js';

export const COLUMN_TYPE: Record<ValueClass, string> = {
  text: 'text COLLATE "C"',
  uuid: 'uuid',
  datetime: 'timestamptz(3)',
  number: 'bigint',
  boolean: 'boolean',
  json: 'json',
  opaque: 'json',
};

/** `lower`: the dialect's case folding, which the substring index is built on. */
export const postgresDdl = (lower: Dialect['lower']) =>
  ({
    columnType: (col) => COLUMN_TYPE[col.cls],
    analyze: (table) => `ANALYZE ${quote(table)}`,
    addColumnIfMissing: (table, column, sqlType) => [
      `ALTER TABLE ${quote(table)} ADD COLUMN IF NOT EXISTS ${quote(column)} ${sqlType}`,
    ],
    changeColumn: (table, column, sqlType, notNull) => [
      `ALTER TABLE ${quote(table)} ALTER COLUMN ${quote(column)} TYPE ${sqlType}, ` +
        `ALTER COLUMN ${quote(column)} ${notNull ? 'SET' : 'DROP'} NOT NULL`,
    ],
    addIndexIfMissing: (table, index, columns) => [
      `CREATE INDEX IF NOT EXISTS ${quote(index)} ON ${quote(table)} (${columns.map(quote).join(', ')})`,
    ],
    // No ADD CONSTRAINT IF NOT EXISTS: the catalogue decides, in a DO block.
    addForeignKeyIfMissing: (table, constraint, column, target) => [
      'DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint ' +
        `WHERE conname = ${sqlString(constraint)} AND conrelid = ${sqlString(quote(table))}::regclass) THEN ` +
        `ALTER TABLE ${quote(table)} ADD CONSTRAINT ${quote(constraint)} FOREIGN KEY (${quote(column)}) ` +
        `REFERENCES ${quote(target)} (${quote('id')}); END IF; END $$`,
    ],
    // Every IPv4 value sorts before '::' (inet order is family first); constants, no user text.
    familyBound: (m, alias, family) => {
      if (!m.net) return null;
      const col = m.net.kind === 'prefix' ? `${alias}.${quote('net_block')}` : `${alias}.${quote('net_host')}`;
      const v6Start = m.net.kind === 'prefix' ? `'::/0'::cidr` : `'::'::inet`;
      return `${col} ${family === 6 ? '>=' : '<'} ${v6Start}`;
    },
    // pg_trgm ships with PostgreSQL (trusted: a database owner may install it). Where it cannot be
    // installed the indexes are skipped and the lookups scan, rather than the migration failing.
    substringIndex: (table, column) => [
      'DO $$ BEGIN CREATE EXTENSION IF NOT EXISTS pg_trgm; ' +
        `EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'pg_trgm unavailable: %', SQLERRM; END $$`,
      `DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN ` +
        `EXECUTE ${sqlString(
          `CREATE INDEX IF NOT EXISTS ${quote(`ix_${table}_${column}_trgm`)} ` +
            `ON ${quote(table)} USING gin ((${lower(quote(column))}) gin_trgm_ops)`,
        )}; END IF; END $$`,
    ],
    netIndexes: postgresNetIndexes,
    indexesInTable: false,
    asciiText: (n, ordered) => `varchar(${n})${ordered ? ' COLLATE "C"' : ''}`,
    idType: COLUMN_TYPE.uuid,
    serialKey: 'bigserial PRIMARY KEY',
    migrationsTable: (table) =>
      `CREATE TABLE IF NOT EXISTS ${quote(table)} (version integer PRIMARY KEY, name text NOT NULL, ` +
      'checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
  }) satisfies Partial<Dialect>;
