// A stand-in for a NetBox 4.2 REST API (not the product): a plain node:http server answering GETs with
// NetBox-shaped JSON made from a NetBox PostgreSQL database (rows read once at start). It follows
// NetBox 4.2's serializers for the fields below (nested objects with id/url/display/name/slug, choices
// as {value, label}, `tags` as nested tags, `custom_fields` with every field of the object's type, prefix
// and cluster `scope_type`/`scope_id`/`scope`, address `assigned_object_type`/`assigned_object_id`/
// `assigned_object`), NetBox's paging (count, next, previous, results; limit, offset; `ordering=id`),
// its token check, and faults to inject (429 with Retry-After, 503, a dropped connection). It records
// every request, and answers anything but GET with 405.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

type Row = Record<string, unknown>;
type Json = Record<string, unknown>;

/** 429 with Retry-After: 1; 503; the connection dropped before any answer ('reset') or inside the body ('cut'). */
export type Fault = '429' | '503' | 'reset' | 'cut';

export interface FixtureOptions {
  readonly databaseUrl: string;
  readonly token: string;
  /** The base URL written into `url` and `next` links (a NetBox behind a proxy names its public host). */
  readonly publicBase?: string;
  /**
   * '3.7': NetBox 3.7's shape where it differs for the fields read: prefixes and clusters name a `site`
   * (the 4.2 database's `_site_id`) instead of a scope, content types are at /api/extras/content-types/.
   */
  readonly shape?: '4.2' | '3.7';
  /** The netbox-version /api/status/ names (default: 4.2.9, or 3.7.8 in the 3.7 shape). */
  readonly version?: string;
}

const SCOPE = 'scope_type:ct scope_id scope:g';

/** The endpoints in a shape. */
function endpointsOf(shape: '4.2' | '3.7'): Record<string, { table: string; fields: string }> {
  if (shape === '4.2') return ENDPOINTS;
  const out: Record<string, { table: string; fields: string }> = {};
  for (const [path, e] of Object.entries(ENDPOINTS))
    out[path === 'extras/object-types' ? 'extras/content-types' : path] = {
      table: e.table,
      fields: e.fields.replace(SCOPE, 'site>dcim_site').replace('object_types', 'content_types'),
    };
  return out;
}

const TAIL = 'tags custom_fields created last_updated';
const ORG = `name slug description ${TAIL}`;
const TREE = (t: string) => `name slug parent>${t} description ${TAIL} _depth@level`;
const PARTS =
  'console_port console_server_port power_port power_outlet interface front_port rear_port device_bay module_bay ' +
  'inventory_item';
const COUNTS = (suffix: string) =>
  PARTS.split(' ')
    .map((n) => `${n}_${suffix}`)
    .join(' ');

/**
 * NetBox 4.2's list endpoints: the table and the fields of its serializer (those an import reads, and a
 * few more). `f` a column; `f:c` a choice; `f:tz` a time zone (blank -> null); `f:ct` the content type
 * ('dcim.site') of column f_id; `f:g` the nested object named by f_type_id and f_id; `f>table` the
 * nested object of column f_id; `f@col` column col under another name.
 */
const ENDPOINTS: Record<string, { table: string; fields: string }> = {
  'dcim/regions': { table: 'dcim_region', fields: TREE('dcim_region') },
  'dcim/site-groups': { table: 'dcim_sitegroup', fields: TREE('dcim_sitegroup') },
  'tenancy/tenant-groups': { table: 'tenancy_tenantgroup', fields: TREE('tenancy_tenantgroup') },
  'tenancy/tenants': {
    table: 'tenancy_tenant',
    fields: `name slug group>tenancy_tenantgroup description comments ${TAIL}`,
  },
  'dcim/sites': {
    table: 'dcim_site',
    fields:
      'name slug status:c region>dcim_region group>dcim_sitegroup tenant>tenancy_tenant facility time_zone:tz ' +
      `description physical_address shipping_address latitude longitude comments ${TAIL}`,
  },
  'dcim/locations': {
    table: 'dcim_location',
    fields:
      'name slug site>dcim_site parent>dcim_location status:c tenant>tenancy_tenant facility description ' +
      `${TAIL} _depth@level`,
  },
  'dcim/rack-roles': { table: 'dcim_rackrole', fields: `name slug color description ${TAIL}` },
  'dcim/racks': {
    table: 'dcim_rack',
    fields:
      'name facility_id site>dcim_site location>dcim_location tenant>tenancy_tenant status:c role>dcim_rackrole ' +
      'serial asset_tag rack_type>dcim_racktype form_factor:c width:c u_height starting_unit weight max_weight ' +
      'weight_unit:c desc_units outer_width outer_depth outer_unit:c mounting_depth airflow:c description comments ' +
      TAIL,
  },
  'dcim/manufacturers': { table: 'dcim_manufacturer', fields: ORG },
  'dcim/device-types': {
    table: 'dcim_devicetype',
    fields:
      'manufacturer>dcim_manufacturer default_platform>dcim_platform model slug part_number u_height ' +
      'exclude_from_utilization is_full_depth subdevice_role:c airflow:c weight weight_unit:c description comments ' +
      `${TAIL} ${COUNTS('template_count')}`,
  },
  'dcim/device-roles': {
    table: 'dcim_devicerole',
    fields: `name slug color vm_role config_template>extras_configtemplate description ${TAIL}`,
  },
  'dcim/platforms': {
    table: 'dcim_platform',
    fields: `name slug manufacturer>dcim_manufacturer config_template>extras_configtemplate description ${TAIL}`,
  },
  'dcim/devices': {
    table: 'dcim_device',
    fields:
      'name device_type>dcim_devicetype role>dcim_devicerole tenant>tenancy_tenant platform>dcim_platform serial ' +
      'asset_tag site>dcim_site location>dcim_location rack>dcim_rack position face:c latitude longitude status:c ' +
      'airflow:c primary_ip4>ipam_ipaddress primary_ip6>ipam_ipaddress oob_ip>ipam_ipaddress ' +
      'cluster>virtualization_cluster virtual_chassis>dcim_virtualchassis vc_position vc_priority description ' +
      `comments config_template>extras_configtemplate config_context local_context_data ${TAIL} ${COUNTS('count')}`,
  },
  'dcim/interfaces': {
    table: 'dcim_interface',
    fields:
      'device>dcim_device module>dcim_module name label type:c enabled parent>dcim_interface bridge>dcim_interface ' +
      'lag>dcim_interface mtu primary_mac_address>dcim_macaddress speed duplex:c wwn mgmt_only description mode:c ' +
      'rf_role:c rf_channel:c poe_mode:c poe_type:c rf_channel_frequency rf_channel_width tx_power ' +
      'untagged_vlan>ipam_vlan qinq_svlan>ipam_vlan vlan_translation_policy>ipam_vlantranslationpolicy ' +
      `mark_connected cable>dcim_cable cable_end wireless_link>wireless_wirelesslink vrf>ipam_vrf ${TAIL}`,
  },
  'ipam/vlans': {
    table: 'ipam_vlan',
    fields:
      'site>dcim_site group>ipam_vlangroup vid name tenant>tenancy_tenant status:c role>ipam_role qinq_role:c ' +
      `qinq_svlan>ipam_vlan description comments ${TAIL}`,
  },
  'ipam/prefixes': {
    table: 'ipam_prefix',
    fields:
      'prefix vrf>ipam_vrf scope_type:ct scope_id scope:g tenant>tenancy_tenant vlan>ipam_vlan status:c ' +
      `role>ipam_role is_pool mark_utilized description comments ${TAIL} children@_children _depth`,
  },
  'ipam/ip-addresses': {
    table: 'ipam_ipaddress',
    fields:
      'address vrf>ipam_vrf tenant>tenancy_tenant status:c role:c assigned_object_type:ct assigned_object_id ' +
      `assigned_object:g nat_inside>ipam_ipaddress dns_name description comments ${TAIL}`,
  },
  'virtualization/cluster-types': { table: 'virtualization_clustertype', fields: ORG },
  'virtualization/cluster-groups': { table: 'virtualization_clustergroup', fields: ORG },
  'virtualization/clusters': {
    table: 'virtualization_cluster',
    fields:
      'name type>virtualization_clustertype group>virtualization_clustergroup status:c tenant>tenancy_tenant ' +
      `scope_type:ct scope_id scope:g description comments ${TAIL}`,
  },
  'virtualization/virtual-machines': {
    table: 'virtualization_virtualmachine',
    fields:
      'name status:c site>dcim_site cluster>virtualization_cluster device>dcim_device serial role>dcim_devicerole ' +
      'tenant>tenancy_tenant platform>dcim_platform primary_ip4>ipam_ipaddress primary_ip6>ipam_ipaddress vcpus ' +
      'memory disk description comments config_template>extras_configtemplate local_context_data config_context ' +
      `${TAIL} interface_count virtual_disk_count`,
  },
  'virtualization/interfaces': {
    table: 'virtualization_vminterface',
    fields:
      'virtual_machine>virtualization_virtualmachine name enabled parent>virtualization_vminterface ' +
      'bridge>virtualization_vminterface mtu primary_mac_address>dcim_macaddress description mode:c ' +
      'untagged_vlan>ipam_vlan qinq_svlan>ipam_vlan vlan_translation_policy>ipam_vlantranslationpolicy vrf>ipam_vrf ' +
      TAIL,
  },
  'ipam/services': {
    table: 'ipam_service',
    fields:
      'device>dcim_device virtual_machine>virtualization_virtualmachine name protocol:c ports description comments ' +
      TAIL,
  },
  'extras/tags': { table: 'extras_tag', fields: 'name slug color description created last_updated' },
  'extras/custom-fields': {
    table: 'extras_customfield',
    fields:
      'type:c related_object_type:ct name label group_name description required unique search_weight ' +
      'filter_logic:c ui_visible:c ui_editable:c is_cloneable default related_object_filter weight ' +
      'validation_minimum validation_maximum validation_regex choice_set>extras_customfieldchoiceset comments ' +
      'object_types created last_updated',
  },
  'extras/custom-field-choice-sets': {
    table: 'extras_customfieldchoiceset',
    fields: 'name description base_choices:c extra_choices order_alphabetically created last_updated',
  },
  'dcim/mac-addresses': {
    table: 'dcim_macaddress',
    fields: `mac_address assigned_object_type:ct assigned_object_id assigned_object:g description comments ${TAIL}`,
  },
  'extras/object-types': { table: 'django_content_type', fields: 'app_label model' },
};

/**
 * NetBox 4.2's endpoints of models an import does not read (their real names), served as pages of
 * {id, url, display} made from the table; 'refused' answers 403, as for a token that may not view them.
 * With ENDPOINTS they make the app roots (`/api/circuits/`), where NetBox also names non-list views.
 */
const OTHER_ENDPOINTS: Record<string, string> = {
  'circuits/providers': 'circuits_provider',
  'circuits/circuit-types': 'circuits_circuittype',
  'circuits/circuits': 'circuits_circuit',
  'circuits/circuit-terminations': 'circuits_circuittermination',
  'dcim/cables': 'dcim_cable',
  'dcim/console-ports': 'dcim_consoleport',
  'dcim/front-ports': 'dcim_frontport',
  'dcim/rear-ports': 'dcim_rearport',
  'dcim/power-ports': 'dcim_powerport',
  'dcim/power-outlets': 'dcim_poweroutlet',
  'dcim/power-panels': 'dcim_powerpanel',
  'dcim/power-feeds': 'dcim_powerfeed',
  'dcim/virtual-chassis': 'dcim_virtualchassis',
  'dcim/module-bays': 'dcim_modulebay',
  'dcim/inventory-items': 'dcim_inventoryitem',
  'ipam/vrfs': 'ipam_vrf',
  'ipam/rirs': 'ipam_rir',
  'ipam/aggregates': 'ipam_aggregate',
  'ipam/roles': 'ipam_role',
  'ipam/asns': 'ipam_asn',
  'ipam/ip-ranges': 'ipam_iprange',
  'ipam/vlan-groups': 'ipam_vlangroup',
  'ipam/route-targets': 'ipam_routetarget',
  'tenancy/contacts': 'tenancy_contact',
  'tenancy/contact-roles': 'tenancy_contactrole',
  'tenancy/contact-assignments': 'tenancy_contactassignment',
  'wireless/wireless-lans': 'wireless_wirelesslan',
  'vpn/tunnels': 'vpn_tunnel',
  'users/users': 'users_user',
  'users/tokens': 'refused',
};
const NON_LIST_VIEWS = ['dcim/connected-device', 'extras/dashboard', 'users/config'];

const ENDPOINT_OF = new Map(Object.entries(ENDPOINTS).map(([path, e]) => [e.table, path]));

/** Python's isoformat of an aware UTC datetime as DRF writes it: fraction only when not zero, 'Z'. */
function pythonTime(value: string): string {
  const m = /^(.*?)(?:\.(\d+))?([+-]\d\d:\d\d|Z)$/.exec(value)!;
  const seconds = new Date(`${m[1]}${m[3]}`).toISOString().slice(0, 19);
  const fraction = (m[2] ?? '').padEnd(6, '0');
  return /^0*$/.test(fraction) ? `${seconds}Z` : `${seconds}.${fraction}Z`;
}

const titled = (v: unknown) => String(v).replace(/(^|[-_ ])(\w)/g, (_, s: string, c: string) => s + c.toUpperCase());

export class NetboxApiFixture {
  /** Every request, in arrival order. */
  readonly requests: { method: string; url: string; at: number }[] = [];
  /** The token NetBox takes (a NetBox 4.5 one, 'nbt_…', comes as Bearer). */
  token: string;
  /** Faults to inject, each once, into the first request whose path starts with `path`. */
  readonly faults: { path: string; fault: Fault }[] = [];
  private readonly tables = new Map<string, Map<number, Row>>();
  private readonly tags = new Map<string, Row[]>();
  private readonly fieldsOf = new Map<number, Row[]>();
  /** The ids of OTHER_ENDPOINTS' tables (those the database has). */
  private readonly otherIds = new Map<string, number[]>();
  private server: Server | null = null;
  private base = '';

  private readonly shape: '4.2' | '3.7';

  private constructor(private readonly options: FixtureOptions) {
    this.token = options.token;
    this.shape = options.shape ?? '4.2';
  }

  static async start(options: FixtureOptions): Promise<NetboxApiFixture> {
    const f = new NetboxApiFixture(options);
    await f.load();
    f.server = createServer((req, res) => f.answer(req, res));
    await new Promise<void>((ok) => f.server!.listen(0, '127.0.0.1', ok));
    f.base = options.publicBase ?? `${f.url}/`;
    return f;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((ok) => this.server?.close(() => ok()) ?? ok());
  }

  private async load(): Promise<void> {
    const c = new pg.Client({ connectionString: this.options.databaseUrl });
    await c.connect();
    try {
      const all = async (table: string, order = 'id') =>
        (await c.query(`SELECT row_to_json(t)::text AS j FROM ${table} t ORDER BY ${order}`)).rows.map(
          (r: { j: string }) => JSON.parse(r.j) as Row,
        );
      for (const { table } of Object.values(ENDPOINTS))
        this.tables.set(table, new Map((await all(table)).map((r) => [r.id as number, r])));
      if (this.shape === '3.7')
        for (const table of ['ipam_prefix', 'virtualization_cluster'])
          for (const r of this.tables.get(table)!.values()) r.site_id = r._site_id;
      for (const table of Object.values(OTHER_ENDPOINTS)) {
        const exists = await c.query(`SELECT to_regclass($1) AS t`, [table]);
        if (exists.rows[0].t)
          this.otherIds.set(
            table,
            (await all(table)).map((r) => r.id as number),
          );
      }
      const tagById = this.tables.get('extras_tag')!;
      for (const item of await all('extras_taggeditem')) {
        const key = `${item.content_type_id}:${item.object_id}`;
        this.tags.set(key, [...(this.tags.get(key) ?? []), tagById.get(item.tag_id as number)!]);
      }
      for (const link of await all('extras_customfield_object_types')) {
        const field = this.tables.get('extras_customfield')!.get(link.customfield_id as number)!;
        this.fieldsOf.set(link.objecttype_id as number, [
          ...(this.fieldsOf.get(link.objecttype_id as number) ?? []),
          field,
        ]);
      }
    } finally {
      await c.end();
    }
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    this.requests.push({ method: req.method ?? '', url: req.url ?? '', at: Date.now() });
    const url = new URL(req.url ?? '/', 'http://fixture');
    const at = this.faults.findIndex((f) => url.pathname.startsWith(f.path));
    if (at >= 0) {
      const { fault } = this.faults.splice(at, 1)[0]!;
      if (fault === 'reset') return void req.socket.destroy();
      if (fault === 'cut') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100000' });
        return void res.write('{"count": 1586, "next": ', () => req.socket.destroy());
      }
      if (fault === '429')
        return this.send(
          res,
          429,
          { detail: 'Request was throttled. Expected available in 1 second.' },
          {
            'Retry-After': '1',
          },
        );
      res.writeHead(503, { 'Content-Type': 'text/html' }).end('<html><body>503 Service Unavailable</body></html>');
      return;
    }
    if (req.method !== 'GET') return this.send(res, 405, { detail: `Method "${req.method}" not allowed.` });
    const auth = req.headers.authorization;
    const token = this.token;
    if (!auth) return this.send(res, 403, { detail: 'Authentication credentials were not provided.' });
    if (auth !== (token.startsWith('nbt_') ? `Bearer ${token}` : `Token ${token}`))
      return this.send(res, 403, { detail: 'Invalid token' });
    if (url.pathname === '/api/status/')
      return this.send(res, 200, {
        'django-version': '5.1.5',
        'installed-apps': {},
        'netbox-version': this.options.version ?? (this.shape === '4.2' ? '4.2.9' : '3.7.8'),
        'netbox-full-version': this.options.version ?? (this.shape === '4.2' ? '4.2.9' : '3.7.8'),
        plugins: {},
        'python-version': '3.12.3',
        'rq-workers-running': 1,
      });
    const path = /^\/api\/(.+?)\/$/.exec(url.pathname)?.[1];
    const endpoint = path ? endpointsOf(this.shape)[path] : undefined;
    if (path && !endpoint) return this.other(res, path, url.searchParams);
    if (!endpoint) return this.send(res, 404, { detail: 'Not found.' });
    this.send(res, 200, this.page(path!, endpoint.table, endpoint.fields, url.searchParams));
  }

  /** An app root, or an endpoint of OTHER_ENDPOINTS. */
  private other(res: ServerResponse, path: string, q: URLSearchParams): void {
    const table = OTHER_ENDPOINTS[path];
    if (table === 'refused')
      return this.send(res, 403, { detail: 'You do not have permission to perform this action.' });
    const ids = table ? this.otherIds.get(table) : undefined;
    if (ids) {
      const limit = Math.min(Number(q.get('limit') ?? 50) || 1000, 1000);
      const offset = Number(q.get('offset') ?? 0);
      const results = ids.slice(offset, offset + limit).map((id) => ({ id, url: `${this.base}api/${path}/${id}/` }));
      const next =
        offset + limit < ids.length ? `${this.base}api/${path}/?limit=${limit}&offset=${offset + limit}` : null;
      return this.send(res, 200, { count: ids.length, next, previous: null, results });
    }
    const names = [...Object.keys(endpointsOf(this.shape)), ...Object.keys(OTHER_ENDPOINTS), ...NON_LIST_VIEWS];
    const root = names.filter((n) => n.startsWith(`${path}/`)).sort();
    if (path.includes('/') || !root.length) return this.send(res, 404, { detail: 'Not found.' });
    this.send(res, 200, Object.fromEntries(root.map((n) => [n.slice(path.length + 1), `${this.base}api/${n}/`])));
  }

  private send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'Content-Type': 'application/json', 'API-Version': this.shape, ...headers });
    res.end(JSON.stringify(body));
  }

  /** One page as NetBox's LimitOffsetPagination writes it (default 50, at most 1000, limit=0 the most). */
  private page(path: string, table: string, fields: string, q: URLSearchParams): Json {
    const rows = [...this.tables.get(table)!.values()];
    const key = (r: Row) => String(r.name ?? r.model ?? r.address ?? r.prefix ?? r.app_label + '.' + r.model);
    if (q.get('ordering') === 'id') rows.sort((a, b) => (a.id as number) - (b.id as number));
    else rows.sort((a, b) => key(a).localeCompare(key(b)) || (a.id as number) - (b.id as number));
    const asked = Number(q.get('limit') ?? 50);
    const limit = asked === 0 ? 1000 : Math.min(asked, 1000);
    const offset = Number(q.get('offset') ?? 0);
    const link = (o: number) => {
      const u = new URL(`api/${path}/`, this.base);
      for (const [k, v] of q) u.searchParams.set(k, v);
      u.searchParams.set('limit', String(limit));
      if (o > 0) u.searchParams.set('offset', String(o));
      else u.searchParams.delete('offset');
      return u.href;
    };
    const exclude = new Set((q.get('exclude') ?? '').split(','));
    return {
      count: rows.length,
      next: offset + limit < rows.length ? link(offset + limit) : null,
      previous: offset > 0 ? link(Math.max(0, offset - limit)) : null,
      results: rows.slice(offset, offset + limit).map((r) => this.serialize(table, fields, r, exclude)),
    };
  }

  private serialize(table: string, fields: string, row: Row, exclude: Set<string>): Json {
    const out: Json = { id: row.id, url: this.urlOf(table, row.id), display_url: '', display: this.display(row) };
    out.display_url = String(out.url).replace('/api/', '/');
    for (const spec of fields.split(' ')) {
      const [, name, how, arg] = /^(\w+)(?:(:|>|@)(\w+))?$/.exec(spec)!;
      if (exclude.has(name!)) continue;
      out[name!] = this.field(table, row, name!, how, arg);
    }
    return out;
  }

  private field(table: string, row: Row, name: string, how?: string, arg?: string): unknown {
    if (how === '>') return this.nested(arg!, row[`${name}_id`]);
    if (how === '@') return row[arg!];
    if (how === ':') {
      const v = row[arg === 'c' || arg === 'tz' ? name : `${name}_id`];
      if (arg === 'c') return v === null || v === '' ? null : { value: v, label: titled(v) };
      if (arg === 'tz') return v === '' ? null : v;
      if (arg === 'ct') return v === null ? null : this.contentType(v as number);
      const type = row[`${name}_type_id`];
      return type === null ? null : this.nested(this.tableOf(type as number), row[`${name}_id`]);
    }
    if (name === 'tags') return this.tagsOf(table, row.id as number);
    if (name === 'object_types' || name === 'content_types')
      return [...this.fieldsOf]
        .filter(([, fields]) => fields.some((f) => f.id === row.id))
        .map(([ct]) => this.contentType(ct))
        .sort();
    // NetBox writes a MAC address in upper case.
    if (name === 'mac_address' && typeof row[name] === 'string') return String(row[name]).toUpperCase();
    if (name === 'custom_fields') return this.customFields(table, row.custom_field_data as Json);
    if (name === 'config_context') return {};
    if (name === 'created' || name === 'last_updated') return row[name] === null ? null : pythonTime(String(row[name]));
    const v = row[name];
    // PostgreSQL writes a host address without its length; NetBox's IPNetwork always has one.
    if (name === 'address' && typeof v === 'string' && !v.includes('/')) return `${v}/${v.includes(':') ? 128 : 32}`;
    return v;
  }

  private contentType(id: number): string {
    const ct = this.tables.get('django_content_type')!.get(id)!;
    return `${ct.app_label}.${ct.model}`;
  }

  private tableOf(contentType: number): string {
    return this.contentType(contentType).replace('.', '_');
  }

  private urlOf(table: string, id: unknown): string {
    const path = ENDPOINT_OF.get(table) ?? table.replace('_', '/');
    return new URL(`api/${path}/${id}/`, this.base).href;
  }

  private display(row: Row | undefined): string {
    if (!row) return '';
    return String(row.name ?? row.model ?? row.address ?? row.prefix ?? row.vid ?? row.id);
  }

  /** NetBox's brief form of an object (id, url, display and its name-like fields). */
  private nested(table: string, id: unknown): Json | null {
    if (id === null || id === undefined) return null;
    const target = this.tables.get(table)?.get(id as number);
    const out: Json = { id, url: this.urlOf(table, id), display: this.display(target) || String(id) };
    for (const k of ['name', 'slug', 'model', 'address', 'prefix', 'vid', 'color', 'description'])
      if (target && k in target) out[k] = target[k];
    return out;
  }

  private tagsOf(table: string, id: number): Json[] {
    const ct = [...this.tables.get('django_content_type')!.values()].find(
      (c) => this.contentType(c.id as number) === table.replace('_', '.'),
    );
    const tags = [...(this.tags.get(`${ct?.id}:${id}`) ?? [])].sort((a, b) =>
      String(a.name).localeCompare(String(b.name)),
    );
    return tags.map((t) => ({ ...this.nested('extras_tag', t.id)!, display_url: '' }));
  }

  /** Every custom field of the object's type, null when the object holds no value (object fields nested). */
  private customFields(table: string, data: Json | null): Json {
    const ct = [...this.tables.get('django_content_type')!.values()].find(
      (c) => this.contentType(c.id as number) === table.replace('_', '.'),
    );
    const out: Json = {};
    for (const field of this.fieldsOf.get(ct?.id as number) ?? []) {
      const name = String(field.name);
      const v = data?.[name] ?? null;
      const target = field.related_object_type_id === null ? '' : this.tableOf(field.related_object_type_id as number);
      out[name] =
        v === null
          ? null
          : field.type === 'object'
            ? this.nested(target, v)
            : field.type === 'multiobject'
              ? (v as unknown[]).map((i) => this.nested(target, i))
              : v;
    }
    return out;
  }
}
