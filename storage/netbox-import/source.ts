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

export class NetboxSource {
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
