// Migration 1, frozen: the inventory schema of the first release, as the registry described it then,
// stored once per database kind in v1-<kind>.sql beside this file. It is no longer computed from the
// registry, so a resource or field added later needs a migration of its own (test/sql/migrated-schema
// compares what the migrations build with what the registry describes).
import fs from 'node:fs';
import type { Dialect } from '../../../engine/sql/dialect.js';

/** The file's statements: after its comment block, each ends with a line holding a semicolon alone. */
export function parseFrozen(text: string): string[] {
  const body = text.slice(text.indexOf('\n\n') + 2);
  return body.split('\n;\n').filter((s) => s.trim() !== '');
}

const read = new Map<string, readonly string[]>();

/** The frozen statements of migration 1 on `d`'s kind of database (PostgreSQL, MariaDB, MySQL). */
export function firstReleaseStatements(d: Dialect): string[] {
  const file = `v1-${d.label.toLowerCase()}.sql`;
  let statements = read.get(file);
  if (!statements) {
    // Read from the source tree, as routes/api-root.ts reads package.json: the build copies no .sql.
    const url = new URL(`../../../../storage/sql/migrations/${file}`, import.meta.url);
    statements = parseFrozen(fs.readFileSync(url, 'utf8'));
    read.set(file, statements);
  }
  return [...statements];
}
