// NetBox's REST API as a NetboxSource: each list endpoint read to the end (ordered by id) and each
// object turned back into the row NetBox's database holds for it: nested objects to their ids, choices
// to their values, 'dcim.site' to its content type id, `custom_fields` to custom_field_data, and the
// objects' `tags` to extras_taggeditem rows. Only GETs (http-client.ts).
import { countOtherTables, type OtherTables } from './api-other-tables.js';
import { API_TABLES, CONTENT_TYPE_PATHS, STATUS_PATH, type ApiTable } from './api-tables.js';
import { NetboxApiError, NetboxHttpClient, type HttpClientOptions } from './http-client.js';
import {
  canonicalCustomFields,
  canonicalInet,
  canonicalTime,
  contentTypeOf,
  netboxTable,
  NETBOX_TABLES,
  type ColumnKind,
  type NetboxSource,
  type NetboxTable,
} from './row-source.js';

type Row = Record<string, unknown>;
type Json = Record<string, unknown>;

const ABSENT = Symbol('absent');

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A nested object's id (`{"id": 3, "url": …}`), or the value itself. */
function idOf(v: unknown): unknown {
  return isObject(v) && 'id' in v ? v.id : v;
}

function num(v: unknown, what: string): number | null {
  if (v === null || v === undefined) return null;
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || Number.isNaN(n)) throw new Error(`${what}: not a number: ${JSON.stringify(v)}`);
  return n;
}

/** The API field holding a column, by the rule api-tables.ts describes. */
function fieldValue(obj: Json, column: string, api: ApiTable): unknown {
  if (column === 'custom_field_data') return 'custom_fields' in obj ? obj.custom_fields : ABSENT;
  if (column in obj) return obj[column];
  const bare = column.replace(/_id$/, '');
  if (bare !== column && bare in obj) return obj[bare];
  for (const alias of api.aliases?.[column] ?? []) if (alias in obj) return obj[alias];
  return ABSENT;
}

export interface NetboxApiOptions extends HttpClientOptions {}

export class NetboxApiSource implements NetboxSource {
  private contentTypes: Promise<Row[]> | null = null;
  private customFieldTypes: Promise<Map<string, string>> | null = null;
  /** extras_taggeditem rows of each tagged table read to the end so far. */
  private readonly tagRows = new Map<string, Row[]>();
  /** extras_customfield_object_types, from the custom fields' `object_types` (3.7: `content_types`), once read. */
  private cfTypeRows: Row[] | null = null;

  private constructor(
    private readonly client: NetboxHttpClient,
    private readonly netboxVersion: string,
  ) {}

  /** Checks that the URL is a NetBox API that takes the token (one request) before any table is read. */
  static async open(options: NetboxApiOptions): Promise<NetboxApiSource> {
    const client = new NetboxHttpClient(options);
    let status: { body: unknown };
    try {
      status = await client.get(STATUS_PATH);
    } catch (e) {
      if (e instanceof NetboxApiError && e.failure === 'not-found')
        throw new NetboxApiError('not-netbox', `GET ${client.urlOf(STATUS_PATH).href} answered 404`);
      throw e;
    }
    const version = isObject(status.body) ? status.body['netbox-version'] : undefined;
    if (typeof version !== 'string')
      throw new NetboxApiError('not-netbox', `GET ${client.urlOf(STATUS_PATH).href} names no netbox-version`);
    return new NetboxApiSource(client, version);
  }

  async version(): Promise<string> {
    return this.netboxVersion;
  }

  async count(table: string): Promise<number | null> {
    netboxTable(table);
    if (table === 'extras_taggeditem') return this.allTagsRead() ? [...this.tagRows.values()].flat().length : null;
    if (table === 'django_content_type') return (await this.loadContentTypes()).length;
    if (table === 'extras_customfield_object_types') return this.cfTypeRows?.length ?? null;
    return this.client.count(API_TABLES[table]!.path);
  }

  rows(table: string): AsyncIterable<Row> {
    const t = netboxTable(table);
    if (table === 'django_content_type') return this.contentTypeRows();
    if (table === 'extras_taggeditem') return this.taggedItemRows();
    if (table === 'extras_customfield_object_types') return this.cfObjectTypeRows();
    return this.objectRows(t);
  }

  async close(): Promise<void> {}

  /** The models of NetBox's content types this import does not read, counted through their endpoints. */
  async otherTables(): Promise<OtherTables> {
    return countOtherTables(this.client, await this.loadContentTypes(), new Set(NETBOX_TABLES.map((t) => t.table)));
  }

  private async *contentTypeRows(): AsyncGenerator<Row> {
    yield* await this.loadContentTypes();
  }

  /** Content types, by id; the endpoint moved between NetBox versions (api-tables.ts). */
  private loadContentTypes(): Promise<Row[]> {
    this.contentTypes ??= (async () => {
      for (const path of CONTENT_TYPE_PATHS) {
        const rows: Row[] = [];
        try {
          for await (const o of this.client.list(path)) rows.push({ id: o.id, app_label: o.app_label, model: o.model });
        } catch (e) {
          if (e instanceof NetboxApiError && e.failure === 'not-found') continue;
          throw e;
        }
        return rows.sort((a, b) => (a.id as number) - (b.id as number));
      }
      throw new NetboxApiError('not-found', `none of ${CONTENT_TYPE_PATHS.join(', ')}`);
    })();
    return this.contentTypes;
  }

  private async contentTypeId(label: string): Promise<number> {
    const [app, model] = label.split('.');
    const found = (await this.loadContentTypes()).find((r) => r.app_label === app && r.model === model);
    if (!found) throw new Error(`NetBox names a content type it does not list: ${label}`);
    return found.id as number;
  }

  /** Custom field name -> type, to turn object fields' nested objects into the ids the database holds. */
  private loadCustomFieldTypes(): Promise<Map<string, string>> {
    this.customFieldTypes ??= (async () => {
      const types = new Map<string, string>();
      for await (const o of this.client.list(API_TABLES.extras_customfield!.path))
        types.set(String(o.name), String(idOf(isObject(o.type) ? o.type.value : o.type)));
      return types;
    })();
    return this.customFieldTypes;
  }

  private async *cfObjectTypeRows(): AsyncGenerator<Row> {
    if (!this.cfTypeRows) for await (const _ of this.objectRows(netboxTable('extras_customfield')));
    yield* this.cfTypeRows!;
  }

  private async *objectRows(t: NetboxTable): AsyncGenerator<Row> {
    const api = API_TABLES[t.table]!;
    const [tags, cfTypes]: Row[][] = [[], []];
    const ctype = t.tagged ? await this.contentTypeId(contentTypeOf(t.table)) : null;
    let last = -Infinity;
    const objects = this.client.list(api.path, { ordering: 'id', ...api.query });
    for (;;) {
      let next: IteratorResult<Json>;
      try {
        next = await objects.next();
      } catch (e) {
        // A table of a later NetBox (4.2's MAC addresses) on an earlier one: no rows.
        if (e instanceof NetboxApiError && e.failure === 'not-found' && last === -Infinity) break;
        throw e;
      }
      if (next.done) break;
      const obj = next.value;
      const row = await this.toRow(t, api, obj);
      const id = row.id as number;
      if (id === last) continue; // a page boundary moved by a concurrent write
      if (id < last) throw new Error(`${api.path} is not in id order (${id} after ${last}): ordering=id ignored?`);
      last = id;
      if (ctype !== null && Array.isArray(obj.tags))
        for (const tag of obj.tags) tags.push({ content_type_id: ctype, object_id: id, tag_id: idOf(tag) });
      const labels = obj.object_types ?? obj.content_types;
      if (t.table === 'extras_customfield' && Array.isArray(labels))
        for (const label of labels)
          cfTypes.push({ customfield_id: id, objecttype_id: await this.contentTypeId(String(label)) });
      yield row;
    }
    if (t.tagged) this.tagRows.set(t.table, tags);
    if (t.table === 'extras_customfield')
      this.cfTypeRows = cfTypes.sort(
        (a, b) =>
          (a.customfield_id as number) - (b.customfield_id as number) ||
          (a.objecttype_id as number) - (b.objecttype_id as number),
      );
  }

  private async toRow(t: NetboxTable, api: ApiTable, obj: Json): Promise<Row> {
    const row: Row = {};
    for (const [column, kind] of Object.entries(t.columns)) {
      const v = fieldValue(obj, column, api);
      if (v !== ABSENT) row[column] = await this.convert(kind, v, `${t.table}.${column}`);
    }
    return row;
  }

  private async convert(kind: ColumnKind, raw: unknown, what: string): Promise<unknown> {
    // A choice comes as {"value": …, "label": …}.
    const v = kind !== 'json' && kind !== 'cf' && isObject(raw) && 'value' in raw ? raw.value : raw;
    if (v === null || v === undefined) return kind === 'cf' ? {} : null;
    switch (kind) {
      case 'int':
        return num(idOf(v), what);
      case 'ctype':
        return typeof v === 'string' ? this.contentTypeId(v) : num(idOf(v), what);
      case 'dec':
        return num(v, what);
      case 'choice':
        return v === '' ? null : v;
      case 'time':
        return canonicalTime(String(v));
      case 'cf':
        return this.customFieldData(v as Json);
      case 'inet':
        return canonicalInet(String(v));
      case 'ints':
        return (v as unknown[]).map((p) => num(p, what));
      case 'mac':
        return String(v).toUpperCase();
      case 'pairs':
        return (v as unknown[][]).map((p) => p.map(String));
      default:
        return v;
    }
  }

  private async customFieldData(fields: Json): Promise<Row> {
    const types = Object.values(fields).some((v) => isObject(v) || Array.isArray(v))
      ? await this.loadCustomFieldTypes()
      : new Map<string, string>();
    const out: Row = {};
    for (const [name, v] of Object.entries(fields)) {
      const type = types.get(name);
      out[name] = type === 'object' ? idOf(v) : type === 'multiobject' && Array.isArray(v) ? v.map(idOf) : v;
    }
    return canonicalCustomFields(out);
  }

  private allTagsRead(): boolean {
    return NETBOX_TABLES.every((t) => !t.tagged || this.tagRows.has(t.table));
  }

  /** The tags of every tagged table's objects; tables not read yet are read for them. */
  private async *taggedItemRows(): AsyncGenerator<Row> {
    for (const t of NETBOX_TABLES)
      if (t.tagged && !this.tagRows.has(t.table)) for await (const _ of this.objectRows(t));
    const all = [...this.tagRows.values()].flat();
    const key = (r: Row) => [r.content_type_id, r.object_id, r.tag_id] as number[];
    all.sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
    });
    yield* all;
  }
}
