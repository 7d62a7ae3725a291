// Where a NetBox import reads from: one interface over a NetBox PostgreSQL database and a NetBox REST
// API, so the mapping into the product's store is written once. A source yields the rows of NetBox's
// tables by their DB column names, with one canonical form for each value (below), so the same NetBox
// read either way yields equal rows.

/** What a column holds, which fixes the JavaScript form of its values in a row. */
export type ColumnKind =
  /** An integer (ids, references, counts, choice values that are numbers): number. */
  | 'int'
  /** A reference to a django_content_type row (`scope_type_id`, `assigned_object_type_id`): number. */
  | 'ctype'
  /** A decimal (NetBox's API hands them as JSON numbers): number. */
  | 'dec'
  | 'text'
  | 'bool'
  /** A choice (NetBox's API answers '' as null, so a blank choice is null either way): string. */
  | 'choice'
  /** A timestamp: canonicalTime's form, UTC with six fraction digits ('2021-12-30T15:45:37.458000Z'). */
  | 'time'
  /** JSON (local_context_data, a custom field's default): the parsed value. */
  | 'json'
  /** custom_field_data: an object without null entries (the API lists every field, null when unset). */
  | 'cf'
  /** An address or prefix, always with its length: '10.0.0.1/32', '2001:db8::/32'. */
  | 'inet'
  /** An integer array (a service's ports): number[]. */
  | 'ints'
  /** A MAC address: upper case ('AA:BB:CC:00:11:22'), as NetBox's API writes it. */
  | 'mac'
  /** A text array of pairs (a choice set's extra_choices): string[][]. */
  | 'pairs';

export interface NetboxTable {
  readonly table: string;
  /** Columns in the order rows carry them; a column the source's NetBox version lacks is absent. */
  readonly columns: Readonly<Record<string, ColumnKind>>;
  /** The order of rows: ['id'] but for extras_taggeditem (whose ids the API does not show). */
  readonly order: readonly string[];
  /** NetBox lets this table's objects carry tags (their extras_taggeditem rows come with them). */
  readonly tagged: boolean;
}
import type { OtherTables } from './api-other-tables.js';

export interface NetboxSource {
  /** NetBox's version: '4.2.9' from an API (/api/status/), '4.2' from a database (its migrations). */
  version(): Promise<string>;
  /** The rows of one table of NETBOX_TABLES, in `order`, with the columns of NETBOX_TABLES it has. */
  rows(table: string): AsyncIterable<Record<string, unknown>>;
  /** How many rows a table has (for the take/leave report), null when unknown. */
  count(table: string): Promise<number | null>;
  /** The source's other tables (not in NETBOX_TABLES) with their counts, where the reader can see them. */
  otherTables?(): Promise<OtherTables>;
  close(): Promise<void>;
}

const STAMPS: Record<string, ColumnKind> = { created: 'time', last_updated: 'time' };
const CF: Record<string, ColumnKind> = { custom_field_data: 'cf', ...STAMPS };

/** Compact column lists: 'name slug parent_id' with a kind suffix, 'latitude:dec'; the default kind is text. */
function cols(spec: string, tail: Record<string, ColumnKind> = CF): Record<string, ColumnKind> {
  const out: Record<string, ColumnKind> = { id: 'int' };
  for (const word of spec.split(/\s+/).filter(Boolean)) {
    const [name, kind] = word.split(':') as [string, ColumnKind | undefined];
    out[name] = kind ?? (name.endsWith('_id') ? 'int' : 'text');
  }
  return { ...out, ...tail };
}

const TREE = 'name slug description parent_id';
const ORG = 'name slug description';
const COUNTS = (names: string, suffix: string) =>
  names
    .split(' ')
    .map((n) => `${n}_${suffix}:int`)
    .join(' ');
const PORTS = 'console_port console_server_port power_port power_outlet interface front_port rear_port device_bay';
const PARTS = `${PORTS} module_bay inventory_item`;

const SPECS: ReadonlyArray<readonly [string, string, boolean?]> = [
  ['django_content_type', 'app_label model', false],
  ['extras_tag', 'name slug color description', false],
  [
    'extras_customfield',
    'type:choice related_object_type_id:ctype name label group_name description required:bool unique:bool ' +
      'search_weight:int filter_logic:choice ui_visible:choice ui_editable:choice is_cloneable:bool default:json ' +
      'related_object_filter:json weight:int validation_minimum:dec validation_maximum:dec validation_regex ' +
      'choice_set_id comments',
    false,
  ],
  ['dcim_region', TREE],
  ['dcim_sitegroup', TREE],
  ['tenancy_tenantgroup', TREE],
  ['tenancy_tenant', `${ORG} group_id comments`],
  [
    'dcim_site',
    'name slug status:choice region_id group_id tenant_id facility time_zone:choice description physical_address ' +
      'shipping_address latitude:dec longitude:dec comments',
  ],
  ['dcim_location', `${TREE} site_id status:choice tenant_id facility`],
  ['dcim_rackrole', `${ORG} color`],
  [
    'dcim_rack',
    'name facility_id:text site_id location_id tenant_id status:choice role_id rack_type_id serial asset_tag ' +
      'form_factor:choice width:int u_height:int starting_unit:int desc_units:bool outer_width:int outer_depth:int ' +
      'outer_unit:choice mounting_depth:int airflow:choice weight:dec max_weight:int weight_unit:choice description ' +
      'comments',
  ],
  ['dcim_manufacturer', ORG],
  [
    'dcim_devicetype',
    'manufacturer_id default_platform_id model slug part_number u_height:dec exclude_from_utilization:bool ' +
      'is_full_depth:bool subdevice_role:choice airflow:choice weight:dec weight_unit:choice description comments ' +
      COUNTS(PARTS, 'template_count'),
  ],
  ['dcim_devicerole', `${ORG} color vm_role:bool config_template_id`],
  ['dcim_platform', `${ORG} manufacturer_id config_template_id`],
  [
    'dcim_device',
    'name device_type_id role_id tenant_id platform_id serial asset_tag site_id location_id rack_id position:dec ' +
      'face:choice latitude:dec longitude:dec status:choice airflow:choice primary_ip4_id primary_ip6_id oob_ip_id ' +
      'cluster_id virtual_chassis_id vc_position:int vc_priority:int description comments config_template_id ' +
      `local_context_data:json ${COUNTS(PARTS, 'count')}`,
  ],
  [
    'dcim_interface',
    'device_id module_id name label type:choice enabled:bool parent_id bridge_id lag_id mtu:int ' +
      'primary_mac_address_id mac_address:mac speed:int duplex:choice mgmt_only:bool description mode:choice ' +
      'rf_role:choice rf_channel:choice poe_mode:choice poe_type:choice rf_channel_frequency:dec ' +
      'rf_channel_width:dec tx_power:int untagged_vlan_id qinq_svlan_id vlan_translation_policy_id ' +
      'mark_connected:bool cable_id cable_end wireless_link_id vrf_id',
  ],
  [
    'ipam_vlan',
    'site_id group_id vid:int name tenant_id status:choice role_id qinq_role:choice qinq_svlan_id description comments',
  ],
  [
    'ipam_prefix',
    'prefix:inet vrf_id scope_type_id:ctype scope_id site_id tenant_id vlan_id status:choice role_id is_pool:bool ' +
      'mark_utilized:bool description comments',
  ],
  [
    'ipam_ipaddress',
    'address:inet vrf_id tenant_id status:choice role:choice assigned_object_type_id:ctype assigned_object_id ' +
      'nat_inside_id dns_name description comments',
  ],
  ['virtualization_clustertype', ORG],
  ['virtualization_clustergroup', ORG],
  [
    'virtualization_cluster',
    'name type_id group_id status:choice tenant_id scope_type_id:ctype scope_id site_id description comments',
  ],
  [
    'virtualization_virtualmachine',
    'name status:choice site_id cluster_id device_id serial role_id tenant_id platform_id primary_ip4_id ' +
      'primary_ip6_id vcpus:dec memory:int disk:int description comments config_template_id local_context_data:json ' +
      'interface_count:int virtual_disk_count:int',
  ],
  [
    'virtualization_vminterface',
    'virtual_machine_id name enabled:bool parent_id bridge_id mtu:int primary_mac_address_id mac_address:mac ' +
      'description ' +
      'mode:choice untagged_vlan_id qinq_svlan_id vlan_translation_policy_id vrf_id',
  ],
  ['ipam_service', 'device_id virtual_machine_id name protocol:choice ports:ints description comments'],
  // NetBox 4.2's MAC addresses (an interface's primary_mac_address_id names one).
  ['dcim_macaddress', 'mac_address:mac assigned_object_type_id:ctype assigned_object_id description comments'],
  ['extras_customfieldchoiceset', 'name description base_choices:choice extra_choices:pairs', false],
];

const TAGGED_ITEM: NetboxTable = {
  table: 'extras_taggeditem',
  columns: { content_type_id: 'ctype', object_id: 'int', tag_id: 'int' },
  order: ['content_type_id', 'object_id', 'tag_id'],
  tagged: false,
};

/** A custom field's object types (4.0+; the API shows them as the custom field's `object_types`). */
const CF_OBJECT_TYPES: NetboxTable = {
  table: 'extras_customfield_object_types',
  columns: { customfield_id: 'int', objecttype_id: 'ctype' },
  order: ['customfield_id', 'objecttype_id'],
  tagged: false,
};

/**
 * The tables an import reads, in an order where a row's references come before it where NetBox allows
 * (content types, tags and custom fields first; tagged items last). extras_taggeditem holds only the
 * tags of these tables' objects; other columns of NetBox's tables (MPTT bookkeeping, caches such as
 * `_name` or `_abs_weight`, image paths) are left out: the API does not show them.
 */
export const NETBOX_TABLES: readonly NetboxTable[] = [
  ...SPECS.map(([table, spec, tagged]) => ({
    table,
    columns:
      table === 'django_content_type' ? cols(spec, {}) : table.startsWith('extras_') ? cols(spec, STAMPS) : cols(spec),
    order: ['id'],
    tagged: tagged ?? true,
  })),
  CF_OBJECT_TYPES,
  TAGGED_ITEM,
];

const BY_NAME = new Map(NETBOX_TABLES.map((t) => [t.table, t]));

export function netboxTable(table: string): NetboxTable {
  const t = BY_NAME.get(table);
  if (!t) throw new Error(`not a NetBox table this import reads: ${table}`);
  return t;
}

/** NetBox's content type of a table's objects: 'dcim_site' -> 'dcim.site'. */
export function contentTypeOf(table: string): string {
  const at = table.indexOf('_');
  return `${table.slice(0, at)}.${table.slice(at + 1)}`;
}

const STAMP = /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)(?:\.(\d+))?\s*(Z|[+-]\d\d(?::?\d\d)?)?$/i;

/** A timestamp in UTC with microseconds, from PostgreSQL's text, NetBox's JSON or a Date. */
export function canonicalTime(value: string | Date): string {
  if (value instanceof Date) return value.toISOString().replace('Z', '000Z');
  const m = STAMP.exec(value.trim());
  if (!m) throw new Error(`not a timestamp: ${value}`);
  const [, day, clock, fraction = '', zone = 'Z'] = m;
  const offset =
    zone.toUpperCase() === 'Z' ? 'Z' : zone.length === 3 ? `${zone}:00` : zone.replace(/(\d\d)(\d\d)$/, '$1:$2');
  const whole = new Date(`${day}T${clock}${offset}`);
  if (Number.isNaN(whole.getTime())) throw new Error(`not a timestamp: ${value}`);
  return `${whole.toISOString().slice(0, 19)}.${fraction.padEnd(6, '0').slice(0, 6)}Z`;
}

/** An address or prefix with its length ('10.0.0.1' from PostgreSQL's inet is '10.0.0.1/32'). */
export function canonicalInet(value: string): string {
  return value.includes('/') ? value : `${value}/${value.includes(':') ? 128 : 32}`;
}

/** custom_field_data without null entries. */
export function canonicalCustomFields(data: Record<string, unknown> | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data ?? {})) if (v !== null && v !== undefined) out[k] = v;
  return out;
}
