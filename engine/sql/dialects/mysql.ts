// MySQL 8 / MariaDB 10.11: `?` placeholders (lists expanded), text in a binary NO PAD collation
// (code point order, 'a' <> 'a '), JSON columns read through JSON_TYPE / JSON_UNQUOTE, and networks
// as varbinary(16) address columns (mysql-net.ts). The DDL members are mysql-ddl.ts's, the stores'
// write forms mysql-writes.ts's, related counts mysql-counts.ts's.
import type { Dialect } from '../dialect.js';
import { re2ToMysql } from '../regex-translate.js';
import type { ColumnModel } from '../table-model.js';
import { buildDialect, encodeValue } from './base.js';
import { mysqlCounts } from './mysql-counts.js';
import { mysqlDdl } from './mysql-ddl.js';
import { netColumns, netOrder, netPredicate } from './mysql-net.js';
import { inList, placeholder, quote } from './mysql-quoting.js';
import { MYSQL_WRITES } from './mysql-writes.js';

export type MysqlFlavour = 'mariadb' | 'mysql';

/**
 * Where MariaDB and MySQL differ in what the dialect writes: the binary NO PAD collation's name,
 * and whether multi-row INSERTs carry their values written into the text (mysql-literal.ts) rather
 * than bound. Measured per 1,000 rows of 22 columns (one a 700-character JSON text), server + client
 * CPU: MySQL 9 bound 22-27 + 21-25 ms, written 12-18 + 4-5 ms; MariaDB bound 5.5-7.6 + 6.9-7.2 ms,
 * written 12.1 + 4.5 ms (its parser reads long texts slowly; prepared values are copied as they are).
 */
const FLAVOURS: Record<
  MysqlFlavour,
  { readonly label: string; readonly collation: string; readonly insertsWrittenOut: boolean }
> = {
  mariadb: { label: 'MariaDB', collation: 'utf8mb4_nopad_bin', insertsWrittenOut: false },
  mysql: { label: 'MySQL', collation: 'utf8mb4_0900_bin', insertsWrittenOut: true },
};

const WRITTEN_OUT = new WeakSet<Dialect>();

/** Whether `d` writes the values of multi-row INSERTs into their text (Oracle MySQL), not as parameters. */
export const insertsWrittenOut = (d: Dialect): boolean => WRITTEN_OUT.has(d);

export const TEXT_COLLATION: Record<MysqlFlavour, string> = {
  mariadb: FLAVOURS.mariadb.collation,
  mysql: FLAVOURS.mysql.collation,
};

const COVER_MARKS: Dialect['coverMarks'] = { freshReads: false, gateForInserts: true, rangesJoined: false };
const COUNTS = mysqlCounts({ quote, placeholder, inList });

const NUMERIC_JSON_TYPES = `('INTEGER', 'DOUBLE', 'DECIMAL', 'UNSIGNED INTEGER')`;

/** `2024-01-02T03:04:05.678Z` -> `2024-01-02 03:04:05.678` (DATETIME(3) holds UTC). */
export function toMysqlDatetime(iso: string): string {
  // The usual form (toISOString's) cut, not searched: every row of a bulk create has two or three.
  if (iso.length === 24 && iso.charCodeAt(10) === 0x54 && iso.charCodeAt(23) === 0x5a)
    return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
  return iso.replace('T', ' ').replace(/Z$/, '');
}

/** Booleans as 1 / 0, instants as DATETIME text; the rest as every dialect binds it. */
function encode(col: ColumnModel, v: unknown): unknown {
  if (v === undefined || v === null || (col.cls !== 'boolean' && col.cls !== 'datetime')) return encodeValue(col, v);
  if (col.cls === 'boolean') return v ? 1 : 0;
  return typeof v === 'string' ? toMysqlDatetime(v) : v;
}

/** JSON as checked text, read through JSON_EXTRACT / JSON_TYPE / JSON_UNQUOTE; `coll` compares its strings. */
const jsonMembers = (coll: string) =>
  ({
    jsonMember(b, col, name) {
      if (name === null) b.emit(col);
      else
        b.emit(`JSON_EXTRACT(${col}, `)
          .param(`$."${name.replace(/[\\"]/g, (c) => '\\' + c)}"`, 'text')
          .emit(')');
    },
    jsonTypeIs(b, e, t) {
      b.emit('JSON_TYPE(');
      e(b);
      b.emit(t === 'number' ? `) IN ${NUMERIC_JSON_TYPES}` : `) = '${t.toUpperCase()}'`);
    },
    jsonString(b, e) {
      b.emit('(JSON_UNQUOTE(');
      e(b);
      b.emit(`) COLLATE ${coll})`);
    },
    jsonNumber(b, e) {
      b.emit('CAST(JSON_UNQUOTE(');
      e(b);
      b.emit(') AS DOUBLE)');
    },
    jsonArrayHas(b, e, value) {
      b.emit('JSON_CONTAINS(');
      e(b);
      b.emit(', ').param(JSON.stringify(value), 'text').emit(')');
    },
  }) satisfies Partial<Dialect>;

export function mysqlDialect(flavour: MysqlFlavour = 'mariadb'): Dialect {
  const { label, collation: coll, insertsWrittenOut: writtenOut } = FLAVOURS[flavour];
  const d = buildDialect({
    name: 'mysql',
    label,
    quote,
    placeholder,

    paramType: () => 'text',
    encode,
    inList,

    lower: (expr) => `LOWER(${expr})`,
    textOf: (expr, cls) =>
      cls === 'uuid'
        ? `(CONVERT(${expr} USING utf8mb4) COLLATE ${coll})`
        : `(CONVERT(CONCAT(LEFT(DATE_FORMAT(${expr}, '%Y-%m-%dT%H:%i:%s.%f'), 23), 'Z') USING utf8mb4) ` +
          `COLLATE ${coll})`,
    // No REGEXP_LIKE on MariaDB: the case flag goes in front of the pattern, which both PCRE2
    // (MariaDB) and ICU (MySQL 8) read; (?-i) keeps matching case-sensitive whatever the collation.
    regex(b, expr, pattern, ci) {
      b.emit(`${expr} REGEXP `).param(`${ci ? '(?i)' : '(?-i)'}${re2ToMysql(pattern)}`, 'text');
    },
    ...jsonMembers(coll),

    net: netPredicate,
    netOrder,
    netColumns,

    orderTerm(expr, desc, nullable) {
      const dir = desc ? 'DESC' : 'ASC';
      // MySQL sorts NULL first ascending; memory sorts it last (and first descending).
      return nullable ? `(${expr} IS NULL) ${dir}, ${expr} ${dir}` : `${expr} ${dir}`;
    },

    ...mysqlDdl(coll),
    ...MYSQL_WRITES,
    coverMarks: COVER_MARKS,
    counts: COUNTS,
  });
  if (writtenOut) WRITTEN_OUT.add(d);
  return d;
}
