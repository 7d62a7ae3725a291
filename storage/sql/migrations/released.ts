// The migrations released so far, frozen: their statements as the release that wrote them computed
// them from the registry (migration 1 made every table it then had), stored once per kind of
// database in released-<kind>.sql beside this file (integer stores' in released-<kind>-integer.sql).
// No longer computed from the registry, so they stay what ran on every database (their checksums
// are compared at each start), and a resource or field added later needs a migration of its own
// (test/sql/migrated-schema compares what the migrations build with what the registry describes).
import fs from 'node:fs';
import type { Dialect } from '../../../engine/sql/dialect.js';

/** The statements of each version in a file: after its comment block, each version starts with a
 * line `-- migration N`, each statement ends with a line holding a semicolon alone. */
export function parseReleased(text: string): Map<number, string[]> {
  const parts = text.slice(text.indexOf('\n\n') + 2).split(/^-- migration (\d+)\n/m);
  const out = new Map<number, string[]>();
  for (let i = 1; i < parts.length; i += 2)
    out.set(
      Number(parts[i]),
      parts[i + 1].split('\n;\n').filter((s) => s.trim() !== ''),
    );
  return out;
}

/**
 * The kind of database the text was written for: the server (PostgreSQL, MariaDB, MySQL) and, where
 * case-insensitive comparisons name a collation (PostgreSQL with ICU), that collation: indexes on
 * lower-cased text name it.
 */
function kindOf(d: Dialect): string {
  const ci = / COLLATE "([^"]+)"/.exec(d.lower('x'))?.[1];
  // Integer stores have a lineage of their own (released-<kind>-integer.sql: from version 16 on).
  return d.label.toLowerCase() + (ci ? `-${ci}` : '') + (d.ids.name === 'integer' ? '-integer' : '');
}

const read = new Map<string, ReadonlyMap<number, readonly string[]>>();

/** Version `version`'s frozen statements on `d`'s kind of database. */
export const released =
  (version: number) =>
  (d: Dialect): string[] => {
    const kind = kindOf(d);
    let versions = read.get(kind);
    if (!versions) {
      // Read from the source tree, as routes/api-root.ts reads package.json: the build copies no .sql.
      const url = new URL(`../../../../storage/sql/migrations/released-${kind}.sql`, import.meta.url);
      versions = parseReleased(fs.readFileSync(url, 'utf8'));
      read.set(kind, versions);
    }
    const statements = versions.get(version);
    if (!statements) throw new Error(`released-${kind}.sql holds no migration ${version}`);
    return [...statements];
  };
