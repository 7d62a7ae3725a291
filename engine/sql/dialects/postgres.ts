// PostgreSQL: `$n::type` placeholders, text in COLLATE "C" (code point order, ASCII regex classes
// as RE2), case folding through an ICU collation (JavaScript's toLowerCase), JSON as `json` (text
// kept as written: key order survives, stored definitions compare and replay byte for byte), and
// networks as cidr/inet columns (postgres-net.ts). The DDL members are postgres-ddl.ts's, the stores'
// write forms postgres-writes.ts's, related counts postgres-counts.ts's.
import type { Dialect } from '../dialect.js';
import { re2ToPostgres } from '../regex-translate.js';
import type { ParamType } from '../sql-builder.js';
import type { ValueClass } from '../table-model.js';
import { buildDialect } from './base.js';
import { postgresCounts } from './postgres-counts.js';
import { postgresDdl } from './postgres-ddl.js';
import { netColumns, netOrder, netPredicate } from './postgres-net.js';
import { placeholder, quote } from './postgres-quoting.js';
import { POSTGRES_WRITES } from './postgres-writes.js';

export interface PostgresOptions {
  /** Collation whose lower() / ~* fold case as JavaScript does; null: the database default. */
  readonly ciCollation: string | null;
}

export const DEFAULT_POSTGRES_OPTIONS: PostgresOptions = { ciCollation: 'und-x-icu' };

const COVER_MARKS: Dialect['coverMarks'] = { freshReads: true, gateForInserts: false, rangesJoined: true };
const COUNTS = postgresCounts({ quote, placeholder });

const PARAM_TYPE: Record<ValueClass, ParamType> = {
  text: 'text',
  uuid: 'uuid',
  datetime: 'timestamptz',
  number: 'bigint',
  boolean: 'boolean',
  json: 'json',
  opaque: 'json',
};

/** JSON kept as written (`json`), read through its operators. */
const JSON_MEMBERS = {
  jsonMember(b, col, name) {
    if (name === null) b.emit(col);
    else b.emit(`(${col} -> `).param(name, 'text').emit(')');
  },
  jsonTypeIs(b, e, t) {
    b.emit('json_typeof(');
    e(b);
    b.emit(`) = '${t}'`);
  },
  jsonString(b, e) {
    b.emit('((');
    e(b);
    b.emit(` #>> '{}') COLLATE "C")`);
  },
  jsonNumber(b, e) {
    b.emit('(');
    e(b);
    b.emit(` #>> '{}')::numeric`);
  },
  jsonArrayHas(b, e, value) {
    b.emit('(');
    e(b);
    b.emit(')::jsonb @> ').param(JSON.stringify([value]), 'jsonb');
  },
} satisfies Partial<Dialect>;

export function postgresDialect(opts: PostgresOptions = DEFAULT_POSTGRES_OPTIONS): Dialect {
  const ci = opts.ciCollation ? ` COLLATE ${quote(opts.ciCollation)}` : '';
  const lower: Dialect['lower'] = (expr) => `lower((${expr})${ci})`;
  const d: Dialect = buildDialect({
    name: 'postgres',
    label: 'PostgreSQL',
    quote,
    placeholder,

    paramType: (cls) => PARAM_TYPE[cls],
    inList(b, expr, values, type) {
      if (values.length === 1) b.emit(`${expr} = `).param(values[0], type);
      else b.emit(`${expr} = ANY(`).param(values, `${type}[]`).emit(')');
    },

    lower,
    textOf: (expr, cls) =>
      cls === 'uuid'
        ? `(${expr}::text COLLATE "C")`
        : `(to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') COLLATE "C")`,
    regex(b, expr, pattern, isCi) {
      if (isCi) b.emit(`(${expr})${ci} ~* `).param(re2ToPostgres(pattern), 'text');
      else b.emit(`${expr} ~ `).param(re2ToPostgres(pattern), 'text');
    },
    ...JSON_MEMBERS,

    net: (b, m, alias, n) => netPredicate(d, b, m, alias, n),
    netOrder,
    netColumns,

    // PostgreSQL's defaults are exactly memory's: NULLS LAST ascending, NULLS FIRST descending.
    orderTerm: (expr, desc) => `${expr} ${desc ? 'DESC' : 'ASC'}`,

    ...postgresDdl(lower),
    ...POSTGRES_WRITES,
    coverMarks: COVER_MARKS,
    counts: COUNTS,
  });
  return d;
}
