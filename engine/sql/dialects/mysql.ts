// MySQL 8 / MariaDB 10.11: `?` placeholders (lists expanded), text in a binary NO PAD collation
// (code point order, 'a' <> 'a '), JSON columns read through JSON_TYPE / JSON_UNQUOTE, and networks
// as varbinary(16) address columns (4 bytes IPv4, 16 bytes IPv6) with B-tree indexes that start
// with family: containment is an address range (`net_lo BETWEEN n AND b`), "contains" one
// equality probe per possible prefix length.
import type { NetNode } from '../../plan/nodes.js';
import { networkOf, parseCidr } from '../../net/ip.js';
import type { Dialect, IndexDef, NetColumn } from '../dialect.js';
import { buildDialect, encodeValue } from './base.js';
import { mysqlCounts } from './mysql-counts.js';
import { isAlignedBlock } from '../net-shapes.js';
import { re2ToMysql } from '../regex-translate.js';
import type { SqlBuilder } from '../sql-builder.js';
import type { ColumnModel, TableModel, ValueClass } from '../table-model.js';

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

const quote = (id: string): string => `\`${id.replace(/`/g, '``')}\``;
const placeholder = (): string => '?';

const inList: Dialect['inList'] = (b, expr, values) => {
  if (values.length === 1) {
    b.emit(`${expr} = `).param(values[0], 'text');
    return;
  }
  b.emit(`${expr} IN (`);
  values.forEach((v, i) => {
    if (i) b.emit(', ');
    b.param(v, 'text');
  });
  b.emit(')');
};

// The value set is kept as the connection's LAST_INSERT_ID (drivers answer it with the UPDATE).
const UPDATE_ANSWERS: Dialect['updateAnswers'] = {
  set: (expr) => `LAST_INSERT_ID(${expr})`,
  tail: () => '',
  read: (alias) => ({ sql: `SELECT LAST_INSERT_ID() AS ${alias}`, params: [] }),
};
const COVER_MARKS: Dialect['coverMarks'] = { freshReads: false, gateForInserts: true, rangesJoined: false };
const COUNTS = mysqlCounts({ quote, placeholder, inList });

/** The engine of every table (its rows' locks, MVCC and foreign keys are InnoDB's). */
const TABLE_OPTIONS = ' ENGINE=InnoDB';
const ASCII = 'CHARACTER SET ascii COLLATE ascii_bin';
const UUID_TYPE = `char(36) ${ASCII}`;

const NUMERIC_JSON_TYPES = `('INTEGER', 'DOUBLE', 'DECIMAL', 'UNSIGNED INTEGER')`;

/** `2024-01-02T03:04:05.678Z` -> `2024-01-02 03:04:05.678` (DATETIME(3) holds UTC). */
export function toMysqlDatetime(iso: string): string {
  // The usual form (toISOString's) cut, not searched: every row of a bulk create has two or three.
  if (iso.length === 24 && iso.charCodeAt(10) === 0x54 && iso.charCodeAt(23) === 0x5a)
    return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
  return iso.replace('T', ' ').replace(/Z$/, '');
}

const hexBytes = (hex: string): Buffer => Buffer.from(hex, 'hex');

/** A varchar long enough for every value the field can hold. */
function varcharLength(col: ColumnModel): number {
  const f = col.field;
  if (f.maxLength) return f.maxLength;
  if (f.choices) return Math.max(...f.choices.map((c) => c.value.length));
  if (f.kind === 'mac') return 17;
  if (f.kind === 'prefix' || f.kind === 'address' || f.kind === 'ip') return 64;
  return 255;
}

function columnType(col: ColumnModel): string {
  const types: Record<ValueClass, string> = {
    text: `varchar(${varcharLength(col)})`,
    uuid: UUID_TYPE,
    datetime: 'datetime(3)',
    number: 'bigint',
    boolean: 'tinyint(1)',
    // JSON as checked text on MySQL 8 too (MariaDB's JSON is exactly that): MySQL's binary JSON
    // type re-sorts object keys, and stored definitions / responses must read back byte for byte.
    json: 'longtext',
    opaque: 'longtext',
  };
  return types[col.cls];
}

/** Booleans as 1 / 0, instants as DATETIME text; the rest as every dialect binds it. */
function encode(col: ColumnModel, v: unknown): unknown {
  if (v === undefined || v === null || (col.cls !== 'boolean' && col.cls !== 'datetime')) return encodeValue(col, v);
  if (col.cls === 'boolean') return v ? 1 : 0;
  return typeof v === 'string' ? toMysqlDatetime(v) : v;
}

function netColumns(m: TableModel): NetColumn[] {
  const cidr = (text: unknown) => (typeof text === 'string' ? parseCidr(text) : null);
  const col = (name: string, pick: (c: NonNullable<ReturnType<typeof parseCidr>>) => string): NetColumn => ({
    name,
    sqlType: 'varbinary(16)',
    paramType: 'text',
    encode: (t) => {
      const c = cidr(t);
      return c && hexBytes(pick(c));
    },
  });
  const block = [col('net_lo', (c) => c.network), col('net_hi', (c) => c.broadcast)];
  if (m.net?.kind === 'prefix') return block;
  if (m.net?.kind === 'address') return [col('net_host', (c) => c.host), ...block];
  return [];
}

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
        : `(CONVERT(CONCAT(LEFT(DATE_FORMAT(${expr}, '%Y-%m-%dT%H:%i:%s.%f'), 23), 'Z') USING utf8mb4) COLLATE ${coll})`,
    // No REGEXP_LIKE on MariaDB: the case flag goes in front of the pattern, which both PCRE2
    // (MariaDB) and ICU (MySQL 8) read; (?-i) keeps matching case-sensitive whatever the collation.
    regex(b, expr, pattern, ci) {
      b.emit(`${expr} REGEXP `).param(`${ci ? '(?i)' : '(?-i)'}${re2ToMysql(pattern)}`, 'text');
    },

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

    net: (b, m, alias, n) => netPredicate(b, m, alias, n),
    netOrder(m, alias, field) {
      const col = (c: string) => `${alias}.${quote(c)}`;
      const f = m.byField.get(field)!.field;
      const useHost = m.net!.kind === 'address' && (f.netRole === 'host' || f.kind === 'address');
      return [col(m.net!.family), col(useHost ? 'net_host' : 'net_lo'), col(m.net!.length)];
    },
    netColumns,

    orderTerm(expr, desc, nullable) {
      const dir = desc ? 'DESC' : 'ASC';
      // MySQL sorts NULL first ascending; memory sorts it last (and first descending).
      return nullable ? `(${expr} IS NULL) ${dir}, ${expr} ${dir}` : `${expr} ${dir}`;
    },

    columnType,
    columnCheck: (col) => (col.cls === 'json' || col.cls === 'opaque' ? `json_valid(${quote(col.name)})` : null),
    tableSuffix: `${TABLE_OPTIONS} DEFAULT CHARSET=utf8mb4 COLLATE=${coll}`,
    analyze: (table) => `ANALYZE TABLE ${quote(table)}`,
    // MySQL has no ADD COLUMN / ADD INDEX / ADD CONSTRAINT IF NOT EXISTS (MariaDB has some): the
    // ALTER is chosen by a look at the catalogue.
    addColumnIfMissing: (table, column, sqlType) =>
      unlessInCatalogue(
        `ALTER TABLE ${quote(table)} ADD COLUMN ${quote(column)} ${sqlType}`,
        'COLUMNS',
        `TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '${table}' AND COLUMN_NAME = '${column}'`,
      ),
    addIndexIfMissing: (table, index, columns) =>
      unlessInCatalogue(
        `ALTER TABLE ${quote(table)} ADD INDEX ${quote(index)} (${columns.map(quote).join(', ')})`,
        'STATISTICS',
        `TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '${table}' AND INDEX_NAME = '${index}'`,
      ),
    addForeignKeyIfMissing: (table, constraint, column, target) =>
      unlessInCatalogue(
        `ALTER TABLE ${quote(table)} ADD CONSTRAINT ${quote(constraint)} FOREIGN KEY (${quote(column)}) REFERENCES ${quote(target)} (${quote('id')})`,
        'TABLE_CONSTRAINTS',
        `CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME = '${table}' AND CONSTRAINT_NAME = '${constraint}' AND CONSTRAINT_TYPE = 'FOREIGN KEY'`,
      ),
    // familyBound: none, the network indexes lead with family already. substringIndex: none,
    // InnoDB's n-gram full-text parser is MySQL-only and answers word queries, not LIKE '%x%'.
    netIndexes: mysqlNetIndexes,
    indexesInTable: true,
    tableOptions: TABLE_OPTIONS,
    asciiText: (n) => `varchar(${n}) ${ASCII}`,
    idType: UUID_TYPE,
    serialKey: 'bigint NOT NULL AUTO_INCREMENT PRIMARY KEY',

    insertSkipping: () => ['INSERT IGNORE INTO', ''],
    upsert: (_table, _keys, set, value) =>
      ` ON DUPLICATE KEY UPDATE ${set.map((c) => `${quote(c)} = ${value(quote(c), `VALUES(${quote(c)})`)}`).join(', ')}`,
    upsertRaising: (_table, _keys, column) => {
      const c = quote(column);
      return ` ON DUPLICATE KEY UPDATE ${c} = GREATEST(${c}, VALUES(${c}))`;
    },
    updateAnswers: UPDATE_ANSWERS,
    arrayRows: false,
    writesInWith: false,
    // A window maximum is no option here (engine/sql/covered-spans.ts): the caller folds.
    spansFoldedByDatabase: false,
    migrationsTable: (table) =>
      `CREATE TABLE IF NOT EXISTS ${quote(table)} (version int PRIMARY KEY, name varchar(200) NOT NULL, checksum char(64) NOT NULL, ` +
      `applied_at datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3))${TABLE_OPTIONS}`,
    coverMarks: COVER_MARKS,
    counts: COUNTS,
  });
  if (writtenOut) WRITTEN_OUT.add(d);
  return d;
}

/** Runs `ddl` unless the information_schema view has a row matching `where` (names from the
 * registry, never user text), so a re-run does nothing. */
function unlessInCatalogue(ddl: string, view: string, where: string): string[] {
  return [
    `SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, '${ddl.replace(/'/g, "''")}', 'DO 0') FROM information_schema.${view} WHERE ${where})`,
    'PREPARE netinv_ddl FROM @netinv_ddl',
    'EXECUTE netinv_ddl',
    'DEALLOCATE PREPARE netinv_ddl',
  ];
}

/** memory's netTest on (family, net_lo = network, net_hi = broadcast, net_host = host, length). */
function netPredicate(b: SqlBuilder, m: TableModel, alias: string, n: NetNode): void {
  const col = (c: string) => `${alias}.${quote(c)}`;
  const lo = col('net_lo'),
    hi = col('net_hi'),
    len = col(m.net!.length);
  const addr = n.field === 'host' && m.net!.kind === 'address' ? col('net_host') : lo;
  const bytes = hexBytes;
  b.emit(`(${col(m.net!.family)} = `)
    .param(n.family, 'integer')
    .emit(' AND ');
  switch (n.op) {
    case 'equal':
      b.emit(`${addr} = `).param(bytes(n.network), 'text').emit(` AND ${len} = `).param(n.length, 'integer');
      break;
    case 'addr_eq':
      b.emit(`${addr} = `).param(bytes(n.network), 'text');
      break;
    case 'addr_in':
      b.emit(`${addr} BETWEEN `).param(bytes(n.network), 'text').emit(' AND ').param(bytes(n.broadcast), 'text');
      break;
    case 'contained':
    case 'contained_or_equal':
      b.emit(`${lo} BETWEEN `)
        .param(bytes(n.network), 'text')
        .emit(' AND ')
        .param(bytes(n.broadcast), 'text')
        .emit(` AND ${len} ${n.op === 'contained' ? '>' : '>='} `)
        .param(n.length, 'integer');
      break;
    case 'contains':
    case 'contains_or_equal': {
      if (!isAlignedBlock(n)) {
        b.emit(`${len} ${n.op === 'contains' ? '<' : '<='} `)
          .param(n.length, 'integer')
          .emit(` AND ${lo} <= `)
          .param(bytes(n.network), 'text')
          .emit(` AND ${hi} >= `)
          .param(bytes(n.broadcast), 'text');
        break;
      }
      // The blocks containing network/length are network-of-it at each shorter length: one index
      // probe (family, net_lo, prefix_length) per length, as a row IN list (cheaper to optimise than ORs).
      const top = n.op === 'contains' ? n.length - 1 : n.length;
      if (top < 0) {
        b.emit('FALSE');
        break;
      }
      b.emit(`(${lo}, ${len}) IN (`);
      for (let l = 0; l <= top; l++) {
        if (l) b.emit(', ');
        b.emit('(')
          .param(bytes(networkOf(n.family, n.network, l)), 'text')
          .emit(', ')
          .param(l, 'integer')
          .emit(')');
      }
      b.emit(')');
      break;
    }
    case 'child_of': {
      // Inside the block, and no prefix of the table lies strictly between the block and the row.
      const q = (c: string) => `q.${quote(c)}`;
      b.emit(`${lo} BETWEEN `)
        .param(bytes(n.network), 'text')
        .emit(' AND ')
        .param(bytes(n.broadcast), 'text')
        .emit(` AND ${len} > `)
        .param(n.length, 'integer')
        .emit(
          ` AND NOT EXISTS (SELECT 1 FROM ${quote(m.table)} q WHERE ${q(m.net!.family)} = ${col(m.net!.family)} AND ${q('net_lo')} BETWEEN `,
        )
        .param(bytes(n.network), 'text')
        .emit(` AND ${lo} AND ${q(m.net!.length)} > `)
        .param(n.length, 'integer')
        .emit(` AND ${q(m.net!.length)} < ${len} AND ${q('net_hi')} >= ${hi})`);
      break;
    }
  }
  b.emit(')');
}

/** Index definitions of the network columns: family first so a range never spans families. */
function mysqlNetIndexes(m: TableModel): IndexDef[] {
  if (!m.net) return [];
  const t = m.table;
  const cols = (...c: string[]) => c.map(quote).join(', ');
  const { family, length } = m.net;
  const out = [{ name: `ix_${t}_net_lo`, columns: cols(family, 'net_lo', length) }];
  if (m.net.kind === 'address') out.push({ name: `ix_${t}_net_host`, columns: cols(family, 'net_host', length) });
  return out;
}
