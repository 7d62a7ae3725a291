// What differs between PostgreSQL and MySQL/MariaDB, as hooks the compiler and DDL call.
// Everything else (plan semantics, null handling, statement shapes) lives in compile.ts / ddl.ts.
import type { NetNode } from '../plan/nodes.js';
import type { ParamType, Placeholders, SqlBuilder } from './sql-builder.js';
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
  /** Statements adding a plain index to an existing table unless one of that name is there. */
  addIndexIfMissing(table: string, index: string, columns: readonly string[]): string[];
  /** Statements adding a foreign key (`column` -> `target`.id) unless a constraint of that name is there. */
  addForeignKeyIfMissing(table: string, constraint: string, column: string, target: string): string[];
  /** Refreshes the planner's statistics of a table (after a bulk load). */
  analyze(table: string): string;
  /**
   * Statements giving `lower(column)` a substring (trigram) index that serves `ic`, `isw`, `iew`
   * and `ie`; [] where the database has none (MySQL / MariaDB).
   */
  substringIndex(table: string, column: string): string[];
}

export interface NetColumn {
  readonly name: string;
  readonly sqlType: string;
  readonly paramType: ParamType;
  /** Bound value from the source CIDR text (`10.0.0.0/8`, `10.0.0.1/24`); null when unparsable. */
  encode(cidrText: unknown): unknown;
}
