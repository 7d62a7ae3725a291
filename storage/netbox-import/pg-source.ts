// A NetBox PostgreSQL database as a NetboxSource: the columns of NETBOX_TABLES that the database's
// tables have, read as text and put in the canonical forms of source.ts, so rows equal the API's.
// Read-only: one transaction, READ ONLY, for a consistent snapshot of every table.
import pg from 'pg';
import {
  canonicalCustomFields,
  canonicalInet,
  canonicalTime,
  contentTypeOf,
  netboxTable,
  NETBOX_TABLES,
  type ColumnKind,
  type NetboxSource,
} from './row-source.js';

type Row = Record<string, unknown>;

/** Every value as PostgreSQL's text: the kinds of source.ts decide the JavaScript form. */
const AS_TEXT = { getTypeParser: () => (text: string) => text };

/** PostgreSQL's array text '{22,443}' as numbers. */
function intArray(text: string): number[] {
  const inner = text.replace(/^\{|\}$/g, '');
  return inner ? inner.split(',').map(Number) : [];
}

/** PostgreSQL's text of a two-dimensional text array ('{{a,A},{"b c","B C"}}') as string[][]. */
function textPairs(text: string): string[][] {
  const out: string[][] = [];
  let pair: string[] = [];
  const item = /"((?:[^"\\]|\\.)*)"|([^,{}]+)|([{}])/g;
  let depth = 0;
  for (let m = item.exec(text); m; m = item.exec(text)) {
    if (m[3] === '{') depth++;
    else if (m[3] === '}') {
      if (--depth === 1) (out.push(pair), (pair = []));
    } else pair.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!);
  }
  return out;
}

const FROM_TEXT: Record<ColumnKind, (text: string) => unknown> = {
  int: Number,
  ctype: Number,
  dec: Number,
  text: (t) => t,
  bool: (t) => t === 't' || t === 'true',
  choice: (t) => (t === '' ? null : t),
  time: canonicalTime,
  json: (t) => JSON.parse(t),
  cf: (t) => canonicalCustomFields(JSON.parse(t) as Row | null),
  inet: canonicalInet,
  ints: intArray,
  mac: (t) => t.toUpperCase(),
  pairs: textPairs,
};

/** NetBox releases by the last dcim migration of their x.y.0 (a patch release may add some). */
const RELEASES: ReadonlyArray<readonly [string, number]> = [
  ['3.7', 185],
  ['4.0', 187],
  ['4.1', 190],
  ['4.2', 200],
  ['4.3', 207],
  ['4.4', 215],
];

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export class PgNetboxSource implements NetboxSource {
  private columns: Map<string, Set<string>> | null = null;
  private begun = false;

  private constructor(
    private readonly client: pg.Client,
    private readonly pageSize: number,
  ) {}

  /** `pageSize`: rows per query (default 5000). */
  static async open(url: string, options: { pageSize?: number } = {}): Promise<PgNetboxSource> {
    const client = new pg.Client({ connectionString: url, types: AS_TEXT });
    await client.connect();
    return new PgNetboxSource(client, options.pageSize ?? 5000);
  }

  /** major.minor: NetBox records its release nowhere in the database, its dcim migrations tell. */
  async version(): Promise<string> {
    const r = await this.query(`SELECT max(name) AS name FROM django_migrations WHERE app = 'dcim'`);
    const applied = parseInt(String(r[0]?.name ?? '0'), 10);
    const known = RELEASES.filter(([, last]) => applied >= last);
    return known.length ? known[known.length - 1]![0] : `before ${RELEASES[0]![0]}`;
  }

  async count(table: string): Promise<number | null> {
    const { from, where } = await this.scope(table);
    const r = await this.query(`SELECT count(*) AS n FROM ${from}${where}`);
    return Number(r[0]!.n);
  }

  /** In pages of pageSize rows, each after the last one's key (a large table is never held whole). */
  async *rows(table: string): AsyncGenerator<Row> {
    const t = netboxTable(table);
    const have = (await this.existing()).get(table) ?? new Set<string>();
    const cols = Object.keys(t.columns).filter((c) => have.has(c));
    const { from, where } = await this.scope(table);
    const key = t.order.map(quote).join(', ');
    const after = `(${key}) > (${t.order.map((_, i) => `$${i + 1}`).join(', ')})`;
    const select = [...new Set([...t.order, ...cols])].map(quote).join(', ');
    let last: unknown[] | null = null;
    for (;;) {
      const cond = last ? `${where ? `${where} AND` : ' WHERE'} ${after}` : where;
      const page = await this.query(
        `SELECT ${select} FROM ${from}${cond} ORDER BY ${key} LIMIT ${this.pageSize}`,
        last ?? [],
      );
      for (const raw of page) {
        const row: Row = {};
        for (const c of cols)
          row[c] = raw[c] === null ? (t.columns[c] === 'cf' ? {} : null) : FROM_TEXT[t.columns[c]!](raw[c] as string);
        yield row;
      }
      if (page.length < this.pageSize) return;
      last = t.order.map((c) => page[page.length - 1]![c]);
    }
  }

  async close(): Promise<void> {
    await this.client.end();
  }

  /** extras_taggeditem: the tags of NETBOX_TABLES' objects only. */
  private async scope(table: string): Promise<{ from: string; where: string }> {
    netboxTable(table);
    if (table !== 'extras_taggeditem') return { from: quote(table), where: '' };
    const labels = NETBOX_TABLES.filter((t) => t.tagged).map((t) => `'${contentTypeOf(t.table)}'`);
    return {
      from: 'extras_taggeditem',
      where:
        ` WHERE content_type_id IN (SELECT id FROM django_content_type` +
        ` WHERE app_label || '.' || model IN (${labels.join(', ')}))`,
    };
  }

  private async existing(): Promise<Map<string, Set<string>>> {
    if (this.columns) return this.columns;
    const names = NETBOX_TABLES.map((t) => t.table);
    const r = await this.query(
      `SELECT table_name, column_name FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name = ANY($1)`,
      [names],
    );
    this.columns = new Map();
    for (const { table_name, column_name } of r) {
      const set = this.columns.get(table_name as string) ?? new Set<string>();
      set.add(column_name as string);
      this.columns.set(table_name as string, set);
    }
    return this.columns;
  }

  private async query(sql: string, params: unknown[] = []): Promise<Row[]> {
    if (!this.begun) {
      await this.client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      this.begun = true;
    }
    return (await this.client.query(sql, params)).rows as Row[];
  }
}
