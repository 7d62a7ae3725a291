// MySQL / MariaDB's DDL members: column types (JSON as checked text), the InnoDB table options, and
// statements that add a column, index or foreign key unless the catalogue has it.
import type { Dialect } from '../dialect.js';
import type { ColumnModel, ValueClass } from '../table-model.js';
import { mysqlNetIndexes } from './mysql-net.js';
import { quote } from './mysql-quoting.js';

/** The engine of every table (its rows' locks, MVCC and foreign keys are InnoDB's). */
const TABLE_OPTIONS = ' ENGINE=InnoDB';
const ASCII = 'CHARACTER SET ascii COLLATE ascii_bin';
const UUID_TYPE = `char(36) ${ASCII}`;

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

/** Runs `ddl` unless the information_schema view has a row matching `where` (names from the
 * registry, never user text), so a re-run does nothing. */
function unlessInCatalogue(ddl: string, view: string, where: string): string[] {
  return [
    `SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, '${ddl.replace(/'/g, "''")}', 'DO 0') ` +
      `FROM information_schema.${view} WHERE ${where})`,
    'PREPARE netinv_ddl FROM @netinv_ddl',
    'EXECUTE netinv_ddl',
    'DEALLOCATE PREPARE netinv_ddl',
  ];
}

/** MySQL / MariaDB: the counters of integer ids, one row per table. */
const ID_COUNTER_TABLE = 'id_counter';
const [C, NAME, LAST] = [quote(ID_COUNTER_TABLE), quote('name'), quote('last')];

/**
 * AUTO_INCREMENT numbers a row only as it is inserted, and ids are taken before rows are written: a
 * counter row per table instead, raised by `last = LAST_INSERT_ID(last + n)` in an upsert committing
 * by itself. The row lock makes the n numbers consecutive and the caller's alone; the OK packet
 * answers the new value on that connection.
 */
const MYSQL_ID_COUNTERS: Dialect['idCounters'] = {
  create: () => [
    `CREATE TABLE IF NOT EXISTS ${C} (${NAME} varchar(64) ${ASCII} NOT NULL PRIMARY KEY, ` +
      `${LAST} bigint NOT NULL)${TABLE_OPTIONS}`,
  ],
  take: (table, n) => ({
    sql:
      `INSERT INTO ${C} (${NAME}, ${LAST}) VALUES (?, LAST_INSERT_ID(?)) ` +
      `ON DUPLICATE KEY UPDATE ${LAST} = LAST_INSERT_ID(${LAST} + ?)`,
    params: [table, n, n],
  }),
  advance: (table) => [
    { sql: `SET @netinv_max_id = (SELECT COALESCE(MAX(${quote('id')}), 0) FROM ${quote(table)})`, params: [] },
    {
      sql:
        `INSERT INTO ${C} (${NAME}, ${LAST}) VALUES (?, @netinv_max_id) ` +
        `ON DUPLICATE KEY UPDATE ${LAST} = GREATEST(${LAST}, @netinv_max_id)`,
      params: [table],
    },
  ],
};

/** `coll`: the binary NO PAD collation of the flavour, the tables' default. */
export const mysqlDdl = (coll: string) =>
  ({
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
    // MODIFY restates the whole column (type, nullability), as CREATE TABLE declares it.
    changeColumn: (table, column, sqlType, notNull) => [
      `ALTER TABLE ${quote(table)} MODIFY ${quote(column)} ${sqlType}${notNull ? ' NOT NULL' : ''}`,
    ],
    addIndexIfMissing: (table, index, columns) =>
      unlessInCatalogue(
        `ALTER TABLE ${quote(table)} ADD INDEX ${quote(index)} (${columns.map(quote).join(', ')})`,
        'STATISTICS',
        `TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '${table}' AND INDEX_NAME = '${index}'`,
      ),
    addForeignKeyIfMissing: (table, constraint, column, target) =>
      unlessInCatalogue(
        `ALTER TABLE ${quote(table)} ADD CONSTRAINT ${quote(constraint)} FOREIGN KEY (${quote(column)}) ` +
          `REFERENCES ${quote(target)} (${quote('id')})`,
        'TABLE_CONSTRAINTS',
        `CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME = '${table}' AND CONSTRAINT_NAME = '${constraint}' ` +
          `AND CONSTRAINT_TYPE = 'FOREIGN KEY'`,
      ),
    addCheckIfMissing: (table, constraint, check) =>
      unlessInCatalogue(
        `ALTER TABLE ${quote(table)} ADD CONSTRAINT ${quote(constraint)} CHECK (${check})`,
        'TABLE_CONSTRAINTS',
        `CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME = '${table}' AND CONSTRAINT_NAME = '${constraint}' ` +
          `AND CONSTRAINT_TYPE = 'CHECK'`,
      ),
    // familyBound: none, the network indexes lead with family already. substringIndex: none,
    // InnoDB's n-gram full-text parser is MySQL-only and answers word queries, not LIKE '%x%'.
    netIndexes: mysqlNetIndexes,
    indexesInTable: true,
    tableOptions: TABLE_OPTIONS,
    asciiText: (n) => `varchar(${n}) ${ASCII}`,
    idType: UUID_TYPE,
    // No AUTO_INCREMENT: ids are taken before their rows are written, from a counter table
    // (storage/sql/id-counters.ts), which AUTO_INCREMENT cannot hand out without a row.
    integerIdType: () => 'bigint',
    idCounters: MYSQL_ID_COUNTERS,
    serialKey: 'bigint NOT NULL AUTO_INCREMENT PRIMARY KEY',
    migrationsTable: (table) =>
      `CREATE TABLE IF NOT EXISTS ${quote(table)} (version int PRIMARY KEY, name varchar(200) NOT NULL, ` +
      'checksum char(64) NOT NULL, ' +
      `applied_at datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3))${TABLE_OPTIONS}`,
  }) satisfies Partial<Dialect>;
