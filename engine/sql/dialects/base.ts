// What every SQL dialect writes the same. A dialect lists only what differs from it (postgres.ts,
// mysql.ts: per-member overrides, as Knex's and Kysely's dialects do) and buildDialect() returns the
// frozen whole, so a further engine is a short table rather than a copy of one.
import { UUID_IDS } from '../../schema/id-style.js';
import type { Dialect } from '../dialect.js';
import { LIKE_ESCAPE_CHAR } from '../like.js';
import type { ColumnModel } from '../table-model.js';

/** A row's JS value -> the bound parameter: JSON as text, an absent tag list or custom field set as empty. */
export function encodeValue(col: ColumnModel, v: unknown): unknown {
  if (col.cls === 'opaque') {
    if (v === undefined || v === null)
      return col.field.kind === 'tags' ? '[]' : col.field.kind === 'custom_fields' ? '{}' : null;
    return JSON.stringify(v);
  }
  if (v === undefined || v === null) return null;
  return col.cls === 'json' ? JSON.stringify(v) : v;
}

const BASE = {
  TRUE: 'TRUE',
  FALSE: 'FALSE',
  ids: UUID_IDS,
  encode: encodeValue,
  like(b, expr, pattern) {
    b.emit(`${expr} LIKE `).param(pattern, 'text').emit(` ESCAPE '${LIKE_ESCAPE_CHAR}'`);
  },
  jsonNumberType: 'numeric',
  columnCheck: () => null,
  addCheckIfMissing: () => [],
  tableSuffix: '',
  familyBound: () => null,
  substringIndex: () => [],
  tableOptions: '',
  notifyOnUpdate: () => [],
} as const satisfies Partial<Dialect>;

type Shared = keyof typeof BASE;

/** A dialect's own members: everything the base lacks, and any base member it writes differently. */
export type DialectOwn = Omit<Dialect, Shared> & Partial<Pick<Dialect, Shared>>;

export function buildDialect(own: DialectOwn): Dialect {
  return Object.freeze({ ...BASE, ...own });
}
