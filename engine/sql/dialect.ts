// What differs between PostgreSQL and MySQL/MariaDB, as hooks the compiler and DDL call.
// Everything else (plan semantics, null handling, statement shapes) lives in where-compiler.ts / ddl.ts.
import type { NetNode } from '../plan/nodes.js';
import type { IdStyle } from '../schema/id-style.js';
import type { ParamType, Placeholders, SqlBuilder, SqlText } from './sql-builder.js';
import type { ColumnModel, TableModel, ValueClass } from './table-model.js';

/** Emits one SQL expression into the builder (used where an expression carrying parameters repeats). */
export type Emit = (b: SqlBuilder) => void;
export type JsonType = 'string' | 'number' | 'boolean' | 'array' | 'object';
export type CompareOp = '<' | '<=' | '>' | '>=';

export interface Dialect extends Placeholders {
  readonly name: 'postgres' | 'mysql';
  /** 'PostgreSQL', 'MariaDB', 'MySQL': for messages. */
  readonly label: string;
  quote(identifier: string): string;
  readonly TRUE: string;
  readonly FALSE: string;
  /** The id style of the store this dialect serves (engine/sql/id-columns.ts: withIdStyle); uuid by default. */
  readonly ids: IdStyle;

  // ---- values -------------------------------------------------------------------------------
  /** PostgreSQL type of a bound value for this column (MySQL ignores it). */
  paramType(cls: ValueClass): ParamType;
  /** A row's JS value -> the bound parameter stored in the column (null stays null). */
  encode(col: ColumnModel, value: unknown): unknown;
  /** `expr = v` for one value; `expr IN (…)` / `expr = ANY(…)` for several (values never empty). */
  inList(b: SqlBuilder, expr: string, values: readonly unknown[], type: ParamType): void;

  // ---- text ---------------------------------------------------------------------------------
  /** Unicode lower-casing as JavaScript's toLowerCase (as closely as the database allows). */
  lower(expr: string): string;
  /** Text form of a uuid / datetime column as the API shows it, compared by code point. */
  textOf(expr: string, cls: 'uuid' | 'datetime'): string;
  /** `expr LIKE <pattern> ESCAPE '!'` (pattern already escaped). */
  like(b: SqlBuilder, expr: string, pattern: string): void;
  /** RE2 pattern searched anywhere in expr, optionally case-insensitive. */
  regex(b: SqlBuilder, expr: string, pattern: string, ci: boolean): void;

  // ---- JSON (custom fields, json fields) ------------------------------------------------------
  /** The JSON value of column `col` (name null) or of its member `name`; SQL NULL when absent. */
  jsonMember(b: SqlBuilder, col: string, name: string | null): void;
  jsonTypeIs(b: SqlBuilder, e: Emit, t: JsonType): void;
  /** Text of a JSON string (or of true/false), compared by code point. */
  jsonString(b: SqlBuilder, e: Emit): void;
  jsonNumber(b: SqlBuilder, e: Emit): void;
  /** Bound type for numbers compared with jsonNumber. */
  readonly jsonNumberType: ParamType;
  /** JSON array e has an element equal to value (a scalar). */
  jsonArrayHas(b: SqlBuilder, e: Emit, value: string | number | boolean): void;

  // ---- networks -----------------------------------------------------------------------------
  /** A net node on a prefix / IP address table, two-valued (never SQL NULL). */
  net(b: SqlBuilder, m: TableModel, alias: string, n: NetNode): void;
  /** ORDER BY expressions for an address-like field (family, address, length order). */
  netOrder(m: TableModel, alias: string, field: string): readonly string[];
  /** Extra typed columns of a prefix / address table, with how to fill them from the CIDR text. */
  netColumns(m: TableModel): readonly NetColumn[];

  // ---- ordering / paging --------------------------------------------------------------------
  /** One ORDER BY term: nulls last ascending, first descending. */
  orderTerm(expr: string, desc: boolean, nullable: boolean): string;

  // ---- DDL ----------------------------------------------------------------------------------
  columnType(col: ColumnModel): string;
  /** A CHECK the column's values must pass (MySQL: JSON text is valid JSON), or null. */
  columnCheck(col: ColumnModel): string | null;
  /** After CREATE TABLE (…): engine and character set. */
  readonly tableSuffix: string;
  /**
   * A condition implied by `family = f` on a prefix / address table, on the column the default
   * order's index starts with (or null): with it the ordered index scan starts at that family's
   * first row instead of walking the other family's rows first.
   */
  familyBound(m: TableModel, alias: string, family: 4 | 6): string | null;
  /** Statements adding a column to an existing table unless it is there (a re-run does nothing). */
  addColumnIfMissing(table: string, column: string, sqlType: string): string[];
  /** Statements giving an existing column this type and nullability (a re-run changes nothing). */
  changeColumn(table: string, column: string, sqlType: string, notNull: boolean): string[];
  /** Statements adding a plain index to an existing table unless one of that name is there. */
  addIndexIfMissing(table: string, index: string, columns: readonly string[]): string[];
  /** Statements adding a foreign key (`column` -> `target`.id) unless a constraint of that name is there. */
  addForeignKeyIfMissing(table: string, constraint: string, column: string, target: string): string[];
  /** Statements adding a CHECK (a columnCheck) unless a constraint of that name is there; [] where none are made. */
  addCheckIfMissing(table: string, constraint: string, check: string): string[];
  /** Refreshes the planner's statistics of a table (after a bulk load). */
  analyze(table: string): string;
  /**
   * Statements giving `lower(column)` a substring (trigram) index that serves `ic`, `isw`, `iew`
   * and `ie`; [] where the database has none (MySQL / MariaDB).
   */
  substringIndex(table: string, column: string): string[];
  /** Indexes of a prefix / address table's network columns. */
  netIndexes(m: TableModel): readonly IndexDef[];
  /**
   * CREATE TABLE declares the table's indexes (MySQL: no CREATE INDEX IF NOT EXISTS); else each is
   * created after it.
   */
  readonly indexesInTable: boolean;
  /** After CREATE TABLE (…) of the stores' own tables (no text columns of the API's): the engine. */
  readonly tableOptions: string;
  /** A column of ASCII text compared byte for byte for equality; `ordered`: sorted byte by byte too. */
  asciiText(length: number, ordered: boolean): string;
  /** The type of an id column (a UUID). */
  readonly idType: string;
  /**
   * The type of an integer id column: `key` the table's own id (numbered by the database: PostgreSQL
   * an identity, whose sequence newIds draws from), else a reference to one.
   */
  integerIdType(key: boolean): string;
  /** The counters integer ids are taken from (storage/sql/id-counters.ts). */
  readonly idCounters: IdCounterForms;
  /** A bigint primary key the database numbers itself. */
  readonly serialKey: string;

  // ---- the stores' own statements -------------------------------------------------------------
  /** An INSERT that skips rows whose key (`keys`, or any unique key) is taken: before the table, after the rows. */
  insertSkipping(keys?: readonly string[]): readonly [string, string];
  /** After an INSERT's rows: a row whose `keys` are taken gets each `set` column from `value(stored, given)`. */
  upsert(
    table: string,
    keys: readonly string[],
    set: readonly string[],
    value: (stored: string, given: string) => string,
  ): string;
  /**
   * After an INSERT's rows: a row whose `keys` are taken gets `column` raised to the given value when
   * that is higher.
   */
  upsertRaising(table: string, keys: readonly string[], column: string): string;
  /**
   * How an UPDATE answers the value it set: `set(expr)` in the SET clause, `tail(column)` after the
   * WHERE (PostgreSQL: RETURNING), and `read(alias)` the statement reading it afterwards on the same
   * connection, or null where the UPDATE answers it.
   */
  readonly updateAnswers: {
    set(expr: string): string;
    tail(column: string): string;
    read(alias: string): SqlText | null;
  };
  /**
   * Statements making every UPDATE of `table` notify `channel` with `column`'s new value at commit; []
   * where there are no notifications.
   */
  notifyOnUpdate(table: string, fn: string, channel: string, column: string): string[];
  /** Many rows go as one array parameter per column, read back by unnest (else as a VALUES list per row). */
  readonly arrayRows: boolean;
  /** A WITH may hold INSERT / UPDATE statements (one statement for rows, counter and change records). */
  readonly writesInWith: boolean;
  /** The children of a block are folded into covered runs by the database (window functions); else by the caller. */
  readonly spansFoldedByDatabase: boolean;
  /** The migrations ledger (version, name, checksum, applied_at). */
  migrationsTable(table: string): string;
  /**
   * Cover marks (engine/allocation/sql-cover-marks.ts): how the database's isolation and planner want them written and
   * read.
   */
  readonly coverMarks: CoverMarkForms;
  /** Related counts (engine/sql/related-counts.ts): the triggers that log deltas and the read of a page's counts. */
  readonly counts: CountForms;
}

export interface IdCounterForms {
  /** Statements creating the counters with an integer store's tables ([] where the key's identity is one). */
  create(): string[];
  /**
   * One statement taking `n` numbers of `table`'s counter, committing by itself: it answers rows `id`
   * (each number), or no rows and the insert id, the last of `n` consecutive numbers.
   */
  take(table: string, n: number): SqlText;
  /** Statements, on one connection in order, moving `table`'s counter past its highest id (never back). */
  advance(table: string): SqlText[];
}

export interface IndexDef {
  readonly name: string;
  readonly columns: string;
  readonly using?: string;
  readonly where?: string;
}

export interface CoverMarkForms {
  /**
   * Every statement after a lock sees what was committed before it (READ COMMITTED). InnoDB's
   * REPEATABLE READ reads from a snapshot taken at the transaction's first read, maybe earlier.
   */
  readonly freshReads: boolean;
  /**
   * New rows are written under the gate too. InnoDB: a delete's UPDATE of the marks around a prefix
   * takes gap locks where a block has no row, which an INSERT of a row there then waits for, while
   * the delete may wait for a row that INSERT wrote before: a deadlock (seen in the race test).
   * PostgreSQL has no gap locks.
   */
  readonly gateForInserts: boolean;
  /**
   * The ranges of marksIn each looked up by its own index range scan, joined laterally over arrays
   * of bounds. PostgreSQL plans an OR of ranges by its statistics of `family`; taken before a bulk
   * load's IPv6 rows, they make the whole family look like one row, and each lookup read all of it
   * (0.6 s per statement at 1M prefixes). InnoDB's range optimizer reads an OR of ranges as ranges.
   */
  readonly rangesJoined: boolean;
}

/** The tables of related counts: folded base rows (counted, ref, n) and the deltas appended to `deltas`. */
export interface CountTables {
  readonly base: string;
  readonly deltas: string;
}
/** A counted reference: its key in the base table (`prefix.site`) and the column holding it. */
export interface CountKey {
  readonly key: string;
  readonly field: string;
}

export interface CountForms {
  /** Triggers on `table` appending a delta per counted reference a write moved; `name(event)` names each. */
  triggers(t: CountTables, table: string, refs: readonly CountKey[], name: (event: string) => string): string[];
  /**
   * Rows (counted, pairs) of the counts of `keys` for `ids` (null: every object), pairs `<ref>:<n>`
   * joined by commas, to be summed per ref.
   */
  read(t: CountTables, keys: readonly string[], ids: readonly string[] | null, idType: ParamType): SqlText;
}

export interface NetColumn {
  readonly name: string;
  readonly sqlType: string;
  readonly paramType: ParamType;
  /** Bound value from the source CIDR text (`10.0.0.0/8`, `10.0.0.1/24`); null when unparsable. */
  encode(cidrText: unknown): unknown;
}
