// Statements of apply(): built per resource once, values bound per row. Consecutive creates of
// one resource become multi-row INSERTs (PostgreSQL: one `unnest` of column arrays per chunk, a
// COPY-like batch with a constant number of parameters; MySQL/MariaDB: VALUES lists, on MySQL with
// their values written into the text, see mysqlValues).
// PostgreSQL's column arrays are bound as text made here (pgColumn): pg's own encoding of a JS array
// ran two regular expressions over every element, and a JSON value in an array literal has each of
// its quotes escaped; that was ~10% of a bulk create's server CPU. A JSON column goes as one JSON
// array instead, split by json_array_elements, with nothing to escape.
import type { Dialect } from '../../engine/sql/dialect.js';
import { SqlBuilder, type ParamType, type SqlText } from '../../engine/sql/sql-builder.js';
import { idParam } from '../../engine/sql/id-columns.js';
import { inboundRefs, TABLE_MODELS, tableModel, type TableModel } from '../../engine/sql/table-model.js';
import type { Row } from '../types.js';
import { CHANGE_RESOURCE } from '../../engine/changes/change-records.js';
import { COUNTER_TABLE } from '../../engine/sql/change-counter.js';
import { mysqlLiteral } from '../../engine/sql/dialects/mysql-literal.js';
import { insertsWrittenOut } from '../../engine/sql/dialects/mysql.js';

interface Col {
  readonly name: string;
  readonly type: ParamType;
  readonly encode: (row: Row) => unknown;
}

const QUOTE_OR_BACKSLASH = /["\\]/;
const QUOTES_AND_BACKSLASHES = /["\\]/g;

/** One element of a PostgreSQL array literal, quoted (which any text may be). */
function element(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  const s =
    typeof v === 'string'
      ? v
      : v instanceof Date
        ? v.toISOString()
        : typeof v === 'object'
          ? JSON.stringify(v)
          : String(v);
  return QUOTE_OR_BACKSLASH.test(s) ? `"${s.replace(QUOTES_AND_BACKSLASHES, '\\$&')}"` : `"${s}"`;
}

const isJson = (c: Col) => c.type === 'json';

/**
 * PostgreSQL: a column's values (as Col.encode gives them) as one text parameter, and the set
 * returning function that reads it back as rows: an array literal for unnest, or for a JSON
 * column (encoded values are JSON texts or null) a JSON array for json_array_elements, where a
 * JSON null stands for SQL NULL (encode never gives a JSON null: a null value is SQL NULL).
 */
function pgColumn(c: Col, values: readonly unknown[]): string {
  const parts = new Array<string>(values.length);
  if (isJson(c)) {
    for (let i = 0; i < values.length; i++)
      parts[i] = values[i] === null || values[i] === undefined ? 'null' : String(values[i]);
    return `[${parts.join(',')}]`;
  }
  for (let i = 0; i < values.length; i++) parts[i] = element(values[i]);
  return `{${parts.join(',')}}`;
}

/**
 * PostgreSQL: `ROWS FROM (…) AS u(c0, c1, …)` over the columns' values, their parameters bound in
 * `b` (the text is b's to place), and the expression reading each column from u. `values(c)`: the column's values.
 */
function pgRows(
  b: SqlBuilder,
  cols: readonly Col[],
  values: (c: Col) => readonly unknown[],
): { from: string; exprs: string[] } {
  const fns = cols.map((c) => {
    const p = b.render((r) => r.param(pgColumn(c, values(c)), isJson(c) ? 'json' : `${c.type}[]`));
    return isJson(c) ? `json_array_elements(${p})` : `unnest(${p})`;
  });
  const exprs = cols.map((c, i) =>
    isJson(c) ? `CASE WHEN json_typeof(u.c${i}) = 'null' THEN NULL ELSE u.c${i} END` : `u.c${i}`,
  );
  return { from: `ROWS FROM (${fns.join(', ')}) AS u(${cols.map((_, i) => `c${i}`).join(', ')})`, exprs };
}

/** Result of the reference check run before a delete (memory refuses deletes of referenced objects). */
export type RefHit =
  { readonly kind: 'fk'; readonly model: TableModel; readonly field: string } | { readonly kind: 'tags' };

interface PerTable {
  readonly cols: readonly Col[];
  readonly insertHead: string;
  readonly update: string;
  /** UPDATE … WHERE id AND version (compare-and-swap), and the version read when it matched nothing. */
  readonly updateVersioned: string | null;
  readonly readVersion: string | null;
  readonly del: string;
  readonly delVersioned: string | null;
  readonly tagsInsertHead: string | null;
  readonly tagsDelete: string | null;
  readonly refCheck: { readonly sql: string; readonly repeat: number; readonly hits: readonly RefHit[] } | null;
}

const PG_CHUNK_ROWS = 5000;
/** MySQL: rows and text per INSERT at most (max_allowed_packet is 16 MB by default on MariaDB, 64 MB on MySQL 8). */
const MYSQL_CHUNK_ROWS = 1000;
const MYSQL_CHUNK_CHARS = 2_000_000;
/** MySQL: parameters per INSERT at most, where values are bound (the protocol's limit is 65,535). */
const MYSQL_MAX_PLACEHOLDERS = 60000;

/** The text of a statement built once and bound per use (its parameters bound as null here). */
const textOf = (b: SqlBuilder): string => b.build().sql;

/**
 * MySQL: INSERTs of `count` rows as VALUES lists written out (`tuple(i)`: row i's literals, comma
 * separated), no parameters: sent as text, not as a prepared statement (engine/sql/dialects/mysql-literal.ts).
 * A statement ends at MYSQL_CHUNK_ROWS rows or once past MYSQL_CHUNK_CHARS characters.
 */
function mysqlValues(head: string, count: number, tuple: (i: number) => string): SqlText[] {
  const out: SqlText[] = [];
  let sql = '',
    rows = 0;
  for (let i = 0; i < count; i++) {
    sql += rows ? `, (${tuple(i)})` : `${head}(${tuple(i)})`;
    if (++rows === MYSQL_CHUNK_ROWS || sql.length > MYSQL_CHUNK_CHARS) {
      out.push({ sql, params: [] });
      sql = '';
      rows = 0;
    }
  }
  if (rows) out.push({ sql, params: [] });
  return out;
}

export class WriteStatements {
  private readonly tables = new Map<string, PerTable>();
  /** MySQL (not MariaDB): multi-row INSERTs carry their values in their text (insertsWrittenOut). */
  private readonly writtenOut: boolean;

  constructor(private readonly d: Dialect) {
    this.writtenOut = insertsWrittenOut(d);
    for (const m of TABLE_MODELS) this.tables.set(m.table, this.build(m));
  }

  private build(m: TableModel): PerTable {
    const { d } = this;
    const q = d.quote;
    const cols: Col[] = [
      ...m.columns.map((c) => ({
        name: c.name,
        type: c.idSpace ? idParam(d, c.idSpace) : d.paramType(c.cls),
        encode: (row: Row) => d.encode(c, row[c.name]),
      })),
      ...d
        .netColumns(m)
        .map((nc) => ({ name: nc.name, type: nc.paramType, encode: (row: Row) => nc.encode(row[m.net!.source]) })),
    ];
    const t = q(m.table);
    const names = cols.map((c) => q(c.name)).join(', ');
    const insertHead = `INSERT INTO ${t} (${names}) ${d.arrayRows ? 'SELECT ' : 'VALUES '}`;
    const setCols = cols.filter((c) => c.name !== 'id');
    const hasVersion = m.byField.has('version');
    // A row written without a version (bulk loads, copies) is version 0.
    const versionIs = (b: SqlBuilder) =>
      textOf(b.emit(` AND COALESCE(${q('version')}, 0) = `).param(null, d.paramType(m.byField.get('version')!.cls)));
    const own = idParam(d, m.resource.name),
      tag = idParam(d, 'tag');
    const byId = (head: string) => new SqlBuilder(d).emit(`${head} WHERE ${q('id')} = `).param(null, own);
    const ub = new SqlBuilder(d).emit(`UPDATE ${t} SET `);
    setCols.forEach((c, i) => ub.emit(`${i ? ', ' : ''}${q(c.name)} = `).param(null, c.type));
    const update = textOf(ub.emit(` WHERE ${q('id')} = `).param(null, own));
    const updateVersioned = hasVersion ? versionIs(ub) : null;
    const readVersion = hasVersion ? textOf(byId(`SELECT ${q('version')} AS v FROM ${t}`)) : null;
    const db = byId(`DELETE FROM ${t}`);
    const del = textOf(db);
    const delVersioned = hasVersion ? versionIs(db) : null;
    let tagsInsertHead: string | null = null,
      tagsDelete: string | null = null;
    if (m.tagsTable) {
      const tt = q(m.tagsTable),
        head = `INSERT INTO ${tt} (${q('obj_id')}, ${q('tag_id')}) `;
      tagsInsertHead = d.arrayRows
        ? textOf(
            new SqlBuilder(d)
              .emit(`${head}SELECT * FROM unnest(`)
              .param(null, `${own}[]`)
              .emit(', ')
              .param(null, `${tag}[]`)
              .emit(')'),
          )
        : `${head}VALUES `;
      tagsDelete = textOf(new SqlBuilder(d).emit(`DELETE FROM ${tt} WHERE ${q('obj_id')} = `).param(null, own));
    }
    return {
      cols,
      insertHead,
      update,
      updateVersioned,
      readVersion,
      del,
      delVersioned,
      tagsInsertHead,
      tagsDelete,
      refCheck: this.buildRefCheck(m),
    };
  }

  /** One round trip: index of the first reference memory would report, or -1. */
  private buildRefCheck(m: TableModel): PerTable['refCheck'] {
    const q = this.d.quote;
    const hits: RefHit[] = [];
    const tests: string[] = [];
    for (const { model, fk } of inboundRefs(m.resource.name)) {
      hits.push({ kind: 'fk', model, field: fk.field });
      tests.push(`SELECT 1 FROM ${q(model.table)} WHERE ${q(fk.field)} = `);
    }
    if (m.resource.name === 'tag')
      for (const other of TABLE_MODELS)
        if (other.tagsTable) {
          hits.push({ kind: 'tags' });
          tests.push(`SELECT 1 FROM ${q(other.tagsTable)} WHERE ${q('tag_id')} = `);
        }
    if (!tests.length) return null;
    const b = new SqlBuilder(this.d);
    b.emit('SELECT CASE');
    tests.forEach((t, i) => {
      b.emit(` WHEN EXISTS (${t}`).param(null, idParam(this.d, m.resource.name)).emit(`) THEN ${i}`);
    });
    b.emit(' ELSE -1 END AS hit');
    return { sql: b.build().sql, repeat: tests.length, hits };
  }

  private of(m: TableModel): PerTable {
    return this.tables.get(m.table)!;
  }

  /** Multi-row INSERTs for rows of one table, chunked. */
  insert(m: TableModel, rows: readonly Row[]): SqlText[] {
    const t = this.of(m);
    const out: SqlText[] = [];
    if (this.d.arrayRows) {
      for (let i = 0; i < rows.length; i += PG_CHUNK_ROWS) {
        const chunk = rows.slice(i, i + PG_CHUNK_ROWS);
        const b = new SqlBuilder(this.d);
        const u = pgRows(b, t.cols, (c) => chunk.map(c.encode));
        out.push(b.emit(`${t.insertHead}${u.exprs.join(', ')} FROM ${u.from}`).build());
      }
      return out;
    }
    const { cols } = t;
    if (this.writtenOut) {
      return mysqlValues(t.insertHead, rows.length, (i) => {
        let text = mysqlLiteral(cols[0].encode(rows[i]));
        for (let k = 1; k < cols.length; k++) text += `, ${mysqlLiteral(cols[k].encode(rows[i]))}`;
        return text;
      });
    }
    const per = Math.max(1, Math.min(MYSQL_CHUNK_ROWS, Math.floor(MYSQL_MAX_PLACEHOLDERS / cols.length)));
    for (let i = 0; i < rows.length; i += per) {
      const b = new SqlBuilder(this.d).emit(t.insertHead);
      for (let r = i; r < Math.min(rows.length, i + per); r++) {
        b.emit(r > i ? ', (' : '(').param(cols[0].encode(rows[r]), cols[0].type);
        for (let k = 1; k < cols.length; k++) b.emit(', ').param(cols[k].encode(rows[r]), cols[k].type);
        b.emit(')');
      }
      out.push(b.build());
    }
    return out;
  }

  /**
   * PostgreSQL: creates of one table (without tags) and their change records as ONE statement (run
   * outside a transaction it commits alone: one round trip for the whole write). The records take
   * their numbers from the counter in the same statement (engine/sql/change-counter.ts), so the
   * counter's row is held only for the statement and its commit. null where it does not apply
   * (MySQL: no data-modifying WITH; a batch over one chunk).
   */
  createsLogged(m: TableModel, rows: readonly Row[], records: readonly Row[]): SqlText | null {
    if (!this.d.writesInWith || !this.d.arrayRows || rows.length > PG_CHUNK_ROWS || records.length > PG_CHUNK_ROWS)
      return null;
    const t = this.of(m),
      rec = this.of(tableModel(CHANGE_RESOURCE));
    const q = this.d.quote;
    // Rows with tags go the transaction's way: there the rows are written before their tag rows, so
    // a taken id is reported as the id (a WITH's statements run in no set order).
    if (rows.some((r) => ((r.tags as string[] | undefined) ?? []).length)) return null;
    const b = new SqlBuilder(this.d);
    const data = pgRows(b, t.cols, (c) => rows.map(c.encode));
    const parts = [`d AS (${t.insertHead}${data.exprs.join(', ')} FROM ${data.from})`];
    // Placed twice: PostgreSQL numbers its parameters (this statement is its only).
    const n = b.render((r) => r.param(records.length, 'bigint'));
    const seq = q('seq');
    parts.push(`c AS (UPDATE ${q(COUNTER_TABLE)} SET ${seq} = ${seq} + ${n} WHERE ${q('id')} = 1 RETURNING ${seq})`);
    // Each record's seq column carries its place in the batch (1..n): the number is counter - n + place.
    const seqCol = rec.cols.findIndex((c) => c.name === 'seq');
    const place = records.map((_, i) => i + 1);
    const u = pgRows(b, rec.cols, (c) => (c.name === 'seq' ? place : records.map(c.encode)));
    const names = u.exprs;
    names[seqCol] = `(SELECT ${q('seq')} FROM c) - ${n} + u.c${seqCol}`;
    // Stamped once the counter is held, as the transaction's way stamps them (numberChanges), and cut
    // to milliseconds as JavaScript's clock is (the column would round: a time a little ahead).
    names[rec.cols.findIndex((c) => c.name === 'time')] = `date_trunc('milliseconds', clock_timestamp())`;
    return b
      .emit(`WITH ${parts.join(', ')} ${rec.insertHead}${names.join(', ')} FROM ${u.from} RETURNING ${q('seq')} AS seq`)
      .build();
  }

  /** Join rows for the rows' tags (each tag once per object; the row's own array keeps its order). */
  insertTags(m: TableModel, rows: readonly Row[]): SqlText[] {
    const t = this.of(m);
    if (!t.tagsInsertHead) return [];
    const objs: string[] = [],
      tags: string[] = [];
    for (const r of rows)
      for (const tag of new Set((r.tags as string[] | undefined) ?? [])) {
        objs.push(r.id);
        tags.push(tag);
      }
    if (!objs.length) return [];
    if (this.d.arrayRows) {
      const out: SqlText[] = [];
      for (let i = 0; i < objs.length; i += PG_CHUNK_ROWS)
        out.push({
          sql: t.tagsInsertHead,
          params: [objs.slice(i, i + PG_CHUNK_ROWS), tags.slice(i, i + PG_CHUNK_ROWS)],
        });
      return out;
    }
    if (this.writtenOut)
      return mysqlValues(t.tagsInsertHead, objs.length, (i) => `${mysqlLiteral(objs[i])}, ${mysqlLiteral(tags[i])}`);
    const out: SqlText[] = [];
    for (let i = 0; i < objs.length; i += MYSQL_CHUNK_ROWS) {
      const b = new SqlBuilder(this.d).emit(t.tagsInsertHead);
      for (let k = i; k < Math.min(objs.length, i + MYSQL_CHUNK_ROWS); k++)
        b.emit(k > i ? ', (' : '(')
          .param(objs[k], idParam(this.d, m.resource.name))
          .emit(', ')
          .param(tags[k], idParam(this.d, 'tag'))
          .emit(')');
      out.push(b.build());
    }
    return out;
  }

  /** With `expectVersion` (and a version column): only when the stored version is that one. */
  update(m: TableModel, row: Row, expectVersion?: number): SqlText {
    const t = this.of(m);
    const params = t.cols.filter((c) => c.name !== 'id').map((c) => c.encode(row));
    params.push(row.id);
    if (expectVersion !== undefined && t.updateVersioned)
      return { sql: t.updateVersioned, params: [...params, expectVersion] };
    return { sql: t.update, params };
  }

  /** SELECT of the stored version, or null when the table has no version column. */
  readVersion(m: TableModel, id: string): SqlText | null {
    const t = this.of(m);
    return t.readVersion ? { sql: t.readVersion, params: [id] } : null;
  }

  deleteTags(m: TableModel, id: string): SqlText | null {
    const t = this.of(m);
    return t.tagsDelete ? { sql: t.tagsDelete, params: [id] } : null;
  }

  /** With `expectVersion` (and a version column): only when the stored version is that one. */
  delete(m: TableModel, id: string, expectVersion?: number): SqlText {
    const t = this.of(m);
    if (expectVersion !== undefined && t.delVersioned) return { sql: t.delVersioned, params: [id, expectVersion] };
    return { sql: t.del, params: [id] };
  }

  refCheck(m: TableModel, id: string): { stmt: SqlText; hits: readonly RefHit[] } | null {
    const r = this.of(m).refCheck;
    return r ? { stmt: { sql: r.sql, params: new Array(r.repeat).fill(id) }, hits: r.hits } : null;
  }
}
