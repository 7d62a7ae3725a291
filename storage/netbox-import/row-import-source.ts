// A row reader (row-source.ts; a NetBox REST API) as the importer's source (source.ts ImportSource),
// so `--from https://…` runs the same mapping as `--from postgres://…`: every table of NETBOX_TABLES is
// read once, whole, at open (a table's columns are those its rows carry), and what the database path
// joins in SQL (an interface's MAC address, a custom field's object types and choices) is looked up in
// the rows of the other table. What an API cannot tell is said in docs/import.md ("From a NetBox API").
import { canonicalCustomFields, NETBOX_TABLES, type NetboxSource as RowReader } from './row-source.js';
import { SourceRefused, type ImportSource, type SourceRow } from './source.js';
import { SUPPORTED } from './versions.js';
import type { OtherTables } from './api-other-tables.js';

const STAMPS = ['created', 'last_updated'];

/** The importer's form of a time: ISO in milliseconds (the database path has PostgreSQL write it so). */
const millis = (v: unknown) => (typeof v === 'string' ? `${v.slice(0, 23)}Z` : v);

const isSet = (v: unknown) =>
  v !== null &&
  v !== undefined &&
  v !== '' &&
  v !== false &&
  !(Array.isArray(v) && !v.length) &&
  !(typeof v === 'object' && !Array.isArray(v) && !Object.keys(v).length);

type Rows = Map<string, SourceRow[]>;

/** Custom field names by NetBox table (`tenancy_tenant`), from the custom fields' object types. */
function customFieldsByTable(rows: Rows, types: ReadonlyMap<number, string>): Map<string, string[]> {
  const names = new Map((rows.get('extras_customfield') ?? []).map((r) => [r.id, String(r.name)]));
  const out = new Map<string, string[]>();
  for (const link of rows.get('extras_customfield_object_types') ?? []) {
    const table = (types.get(Number(link.objecttype_id)) ?? '').replace('.', '_');
    const name = names.get(link.customfield_id);
    if (name !== undefined) out.set(table, [...(out.get(table) ?? []), name]);
  }
  return out;
}

/** The rows as the importer reads them: times in milliseconds, the specials' looked-up values. */
function prepare(rows: Rows, types: ReadonlyMap<number, string>): void {
  const macs = new Map((rows.get('dcim_macaddress') ?? []).map((r) => [r.id, r.mac_address]));
  const sets = new Map((rows.get('extras_customfieldchoiceset') ?? []).map((r) => [r.id, r]));
  const cfTypes = new Map<unknown, number[]>();
  for (const link of rows.get('extras_customfield_object_types') ?? [])
    cfTypes.set(link.customfield_id, [...(cfTypes.get(link.customfield_id) ?? []), Number(link.objecttype_id)]);
  const fieldsOf = customFieldsByTable(rows, types);
  for (const [table, list] of rows) {
    const cfs = fieldsOf.get(table) ?? [];
    for (const row of list) {
      for (const c of STAMPS) if (c in row) row[c] = millis(row[c]);
      // NetBox keeps a key, null, for each of the object's custom fields; the API reader drops nulls.
      if ('custom_field_data' in row) {
        const data = canonicalCustomFields(row.custom_field_data as Record<string, unknown>);
        row.custom_field_data = Object.fromEntries([...cfs.map((n) => [n, null]), ...Object.entries(data)]);
      }
      if ('primary_mac_address_id' in row) row.__mac = macs.get(row.primary_mac_address_id) ?? null;
      if (table === 'extras_customfield') {
        row.__cts = [...(cfTypes.get(row.id) ?? [])].sort((a, b) => a - b);
        const set = sets.get(row.choice_set_id);
        row.__ch = set ? set.extra_choices : null;
        row.__bch = set ? set.base_choices : null;
      }
    }
  }
}

export class RowImportSource implements ImportSource {
  private constructor(
    private readonly reader: RowReader,
    private readonly rowsOf: Rows,
    readonly tables: ReadonlyMap<string, ReadonlySet<string>>,
    readonly version: string,
    readonly contentTypes: ReadonlyMap<number, string>,
    private readonly others: OtherTables,
  ) {}

  get uncounted(): readonly string[] {
    return this.others.unreadable;
  }

  /** Refuses a NetBox outside 3.7-4.2 (SourceRefused) before reading any table; closes the reader on failure. */
  static async open(reader: RowReader): Promise<RowImportSource> {
    try {
      const version = await reader.version();
      const release = /^\d+\.\d+/.exec(version)?.[0] ?? version;
      if (!SUPPORTED.includes(release))
        throw new SourceRefused(
          `the source is NetBox ${version}; import reads ${SUPPORTED[0]} to ${SUPPORTED[SUPPORTED.length - 1]}`,
        );
      const rowsOf: Rows = new Map();
      const tables = new Map<string, Set<string>>();
      for (const { table } of NETBOX_TABLES) {
        const rows: SourceRow[] = [];
        for await (const r of reader.rows(table)) rows.push(r);
        rowsOf.set(table, rows);
        tables.set(table, new Set(rows.flatMap((r) => Object.keys(r))));
      }
      const types = new Map(
        (rowsOf.get('django_content_type') ?? []).map((r) => [
          Number(r.id),
          `${String(r.app_label)}.${String(r.model)}`,
        ]),
      );
      prepare(rowsOf, types);
      const others = (await reader.otherTables?.()) ?? { counts: new Map(), unreadable: [] };
      return new RowImportSource(reader, rowsOf, tables, version, types, others);
    } catch (e) {
      await reader.close().catch(() => undefined);
      throw e;
    }
  }

  has(table: string, column?: string): boolean {
    const t = this.tables.get(table);
    return !!t && (column === undefined || t.has(column));
  }

  async count(table: string): Promise<number> {
    return this.rowsOf.get(table)?.length ?? 0;
  }

  async *pages(table: string, _select: string, pageSize: number): AsyncGenerator<SourceRow[]> {
    const rows = this.rowsOf.get(table) ?? [];
    for (let at = 0; at < rows.length; at += pageSize) yield rows.slice(at, at + pageSize);
  }

  async tableCounts(): Promise<Map<string, number>> {
    const all = new Map([...this.others.counts, ...[...this.rowsOf].map(([t, rows]) => [t, rows.length] as const)]);
    return new Map([...all].filter(([, n]) => n > 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  async setCounts(table: string, columns: readonly string[]): Promise<Map<string, number>> {
    const rows = this.rowsOf.get(table) ?? [];
    return new Map(columns.map((c) => [c, rows.filter((r) => isSet(r[c])).length]));
  }

  async taggedItems(): Promise<{ ct: number; obj: number; tag: number }[]> {
    return (this.rowsOf.get('extras_taggeditem') ?? [])
      .map((r) => ({ ct: Number(r.content_type_id), obj: Number(r.object_id), tag: Number(r.tag_id) }))
      .sort((a, b) => a.tag - b.tag);
  }

  async close(): Promise<void> {
    await this.reader.close();
  }
}
