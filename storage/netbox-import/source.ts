// The NetBox database, read only, in one REPEATABLE READ snapshot: every read of an import sees the
// database as it was when the import began, whatever NetBox writes meanwhile. No NetBox code is
// needed: its tables are read with SQL, its layout told apart by the columns present.
import pg from 'pg';
import { netboxVersion } from './versions.js';

export type SourceRow = Record<string, unknown>;

/** The source cannot be imported from (not NetBox, a version outside 3.7-4.2): one line for the operator. */
export class SourceRefused extends Error {}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
export { quote as quoteIdent };

/**
 * What the importer reads from: a NetBox database with SQL (NetboxSource below) or rows from a row reader
 * (row-import-source.ts: a NetBox REST API). `pages` yields rows carrying the table's columns by their
 * names, created/last_updated as ISO text in milliseconds, and the specials' values (specials.ts).
 */
export interface ImportSource {
  /** Every table of the source that the importer may see, with its columns. */
  readonly tables: ReadonlyMap<string, ReadonlySet<string>>;
  /** '4.2' from a database, '4.2.9' from an API. */
  readonly version: string;
  /** django_content_type: id -> `app_label.model`. */
  readonly contentTypes: ReadonlyMap<number, string>;
  has(table: string, column?: string): boolean;
  count(table: string): Promise<number>;
  /** `select`: the plan's SQL select list (table-plan.ts), for a database; a row reader reads every column. */
  pages(table: string, select: string, pageSize: number): AsyncGenerator<SourceRow[]>;
  /** Rows per table, for every table of the source that holds any. */
  tableCounts(): Promise<Map<string, number>>;
  /** Tables the source has but may not count (an API endpoint that refuses the token). */
  readonly uncounted?: readonly string[];
  /** How many rows hold a value (not null, not empty, not false) in each of these columns. */
  setCounts(table: string, columns: readonly string[]): Promise<Map<string, number>>;
  /** extras_taggeditem's rows, ordered by tag id. */
  taggedItems(): Promise<{ ct: number; obj: number; tag: string | number }[]>;
  close(): Promise<void>;
}

export class NetboxSource implements ImportSource {
  private constructor(
    private readonly client: pg.Client,
    /** Every table of the schema, with its columns. */
    readonly tables: ReadonlyMap<string, ReadonlySet<string>>,
    readonly version: string,
    /** django_content_type: id -> `app_label.model`. */
    readonly contentTypes: ReadonlyMap<number, string>,
  ) {}

  static async open(url: string): Promise<NetboxSource> {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10000 });
    await client.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const cols = await client.query<{ t: string; c: string }>(
        `SELECT table_name AS t, column_name AS c FROM information_schema.columns
         WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
      );
      const tables = new Map<string, Set<string>>();
      for (const { t, c } of cols.rows) {
        if (!tables.has(t)) tables.set(t, new Set());
        tables.get(t)!.add(c);
      }
      const dcim = tables.has('django_migrations')
        ? (await client.query<{ name: string }>(`SELECT name FROM django_migrations WHERE app = 'dcim'`)).rows
        : [];
      const v = netboxVersion(
        tables,
        dcim.map((r) => r.name),
      );
      if (!v.ok) throw new SourceRefused(v.why);
      const types = await client.query<{ id: number; ct: string }>(
        `SELECT id, app_label || '.' || model AS ct FROM django_content_type`,
      );
      return new NetboxSource(client, tables, v.version, new Map(types.rows.map((r) => [r.id, r.ct])));
    } catch (e) {
      await client.end().catch(() => undefined);
      throw e;
    }
  }

  has(table: string, column?: string): boolean {
    const t = this.tables.get(table);
    return !!t && (column === undefined || t.has(column));
  }

  async query<T extends SourceRow = SourceRow>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.client.query<T>(sql, params)).rows;
  }

  async tableCounts(): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const t of [...this.tables.keys()].sort()) {
      const n = await this.count(t);
      if (n) out.set(t, n);
    }
    return out;
  }

  async setCounts(table: string, columns: readonly string[]): Promise<Map<string, number>> {
    if (!columns.length) return new Map();
    const exprs = columns.map(
      (c, i) =>
        `count(*) FILTER (WHERE ${quote(c)} IS NOT NULL AND ` +
        `${quote(c)}::text NOT IN ('', 'false', '{}', '[]')) AS n${i}`,
    );
    const [row] = await this.query(`SELECT ${exprs.join(', ')} FROM ${quote(table)}`);
    return new Map(columns.map((c, i) => [c, Number(row[`n${i}`])]));
  }

  async taggedItems(): Promise<{ ct: number; obj: number; tag: string }[]> {
    return this.query<{ ct: number; obj: number; tag: string }>(
      `SELECT content_type_id AS ct, object_id AS obj, tag_id AS tag FROM extras_taggeditem ORDER BY tag_id`,
    );
  }

  async count(table: string): Promise<number> {
    const [r] = await this.query<{ n: string }>(`SELECT count(*) AS n FROM ${quote(table)}`);
    return Number(r.n);
  }

  /**
   * The rows of `SELECT <select> FROM table t`, a page at a time in id order (keyset: no offsets to
   * skip). The next page is asked for before this one is handed out, so the database reads it while
   * the caller writes this one.
   */
  async *pages(table: string, select: string, pageSize: number): AsyncGenerator<SourceRow[]> {
    const page = (after: string) =>
      this.query(`SELECT ${select} FROM ${quote(table)} t WHERE t.id > $1 ORDER BY t.id LIMIT ${pageSize}`, [after]);
    let next = page('0');
    for (;;) {
      const rows = await next;
      const full = rows.length === pageSize;
      if (full) {
        next = page(String(rows[rows.length - 1].id));
        next.catch(() => undefined); // awaited below; a caller that stops early leaves it unread, not unhandled
      }
      if (rows.length) yield rows;
      if (!full) return;
    }
  }

  async close(): Promise<void> {
    await this.client.query('ROLLBACK').catch(() => undefined);
    await this.client.end().catch(() => undefined);
  }
}
