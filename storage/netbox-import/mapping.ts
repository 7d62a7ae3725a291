// What of a NetBox database becomes what in the product, as data: one entry per NetBox table the
// product has a resource for, naming for each product field the NetBox column it comes from.
// Every column of such a table that no entry names, and every table without an entry, is reported
// as left (report.ts), so nothing is dropped silently; only NetBox's own caches (INTERNAL_COLUMNS)
// are passed over without a line, since NetBox recomputes them from the data that is carried.

/** A value that needs more than one column, or another table (source-sql.ts says how each is read). */
export type Special =
  /** NetBox 4.2's scope (`scope_type_id`/`scope_id`) when it names a site; other scopes are left. */
  | 'scope_site'
  /** An IP address's assignment (`assigned_object_type_id`/`assigned_object_id`) to a device interface. */
  | 'assigned_interface'
  /** ... to a VM interface. */
  | 'assigned_vminterface'
  /** NetBox 4.2's MAC address of an interface: the `dcim_macaddress` row its `primary_mac_address_id` names. */
  | 'primary_mac'
  /** A custom field's object types (4.0+: `extras_customfield_object_types`; 3.7: `..._content_types`). */
  | 'cf_content_types'
  /** A custom field's choices: the extra choices of its choice set. */
  | 'cf_choices'
  /** A custom field's type in the product's words (NetBox's `multiselect` is `multi-select`). */
  | 'cf_type';

/** Where a field's value comes from: a column (converted by the product field's kind), or a special. */
export type FieldSource = string | { readonly special: Special };

export interface TableMap {
  /** NetBox's table (Django's `<app_label>_<model>`, which is also how content types name it). */
  readonly table: string;
  readonly resource: string;
  /** Product field -> its source; a list gives alternatives by layout, the first whose columns exist. */
  readonly fields: Readonly<Record<string, FieldSource | readonly FieldSource[]>>;
}

const named = { name: 'name', slug: 'slug', description: 'description' } as const;
const tree = { ...named, parent: 'parent_id' } as const;
const scopeSite: readonly FieldSource[] = [{ special: 'scope_site' }, 'site_id'];
const mac: readonly FieldSource[] = [{ special: 'primary_mac' }, 'mac_address'];

/** In no particular order: the writer follows the registry's dependency order. */
export const TABLES: readonly TableMap[] = [
  { table: 'extras_tag', resource: 'tag', fields: { ...named, color: 'color' } },
  {
    table: 'extras_customfield',
    resource: 'custom_field',
    fields: {
      name: 'name',
      label: 'label',
      type: { special: 'cf_type' },
      filter_logic: 'filter_logic',
      content_types: { special: 'cf_content_types' },
      choices: { special: 'cf_choices' },
      required: 'required',
      default: 'default',
      description: 'description',
    },
  },
  { table: 'dcim_region', resource: 'region', fields: tree },
  { table: 'dcim_sitegroup', resource: 'site_group', fields: tree },
  { table: 'tenancy_tenantgroup', resource: 'tenant_group', fields: tree },
  { table: 'tenancy_tenant', resource: 'tenant', fields: { ...named, group: 'group_id', comments: 'comments' } },
  {
    table: 'dcim_site',
    resource: 'site',
    fields: {
      ...named,
      status: 'status',
      region: 'region_id',
      group: 'group_id',
      tenant: 'tenant_id',
      facility: 'facility',
      physical_address: 'physical_address',
    },
  },
  {
    table: 'dcim_location',
    resource: 'location',
    fields: { ...tree, site: 'site_id', status: 'status', tenant: 'tenant_id' },
  },
  { table: 'dcim_rackrole', resource: 'rack_role', fields: { ...named, color: 'color' } },
  {
    table: 'dcim_rack',
    resource: 'rack',
    fields: {
      name: 'name',
      facility_id: 'facility_id',
      site: 'site_id',
      location: 'location_id',
      tenant: 'tenant_id',
      status: 'status',
      role: 'role_id',
      serial: 'serial',
      asset_tag: 'asset_tag',
      u_height: 'u_height',
      desc_units: 'desc_units',
      description: 'description',
      comments: 'comments',
    },
  },
  { table: 'dcim_manufacturer', resource: 'manufacturer', fields: named },
  {
    table: 'dcim_devicetype',
    resource: 'device_type',
    fields: {
      manufacturer: 'manufacturer_id',
      model: 'model',
      slug: 'slug',
      part_number: 'part_number',
      u_height: 'u_height',
      is_full_depth: 'is_full_depth',
      description: 'description',
      comments: 'comments',
    },
  },
  { table: 'dcim_devicerole', resource: 'device_role', fields: { ...named, color: 'color', vm_role: 'vm_role' } },
  { table: 'dcim_platform', resource: 'platform', fields: { ...named, manufacturer: 'manufacturer_id' } },
  { table: 'virtualization_clustertype', resource: 'cluster_type', fields: named },
  { table: 'virtualization_clustergroup', resource: 'cluster_group', fields: named },
  {
    table: 'virtualization_cluster',
    resource: 'cluster',
    fields: {
      name: 'name',
      type: 'type_id',
      group: 'group_id',
      status: 'status',
      tenant: 'tenant_id',
      site: scopeSite,
      description: 'description',
      comments: 'comments',
    },
  },
  {
    table: 'dcim_device',
    resource: 'device',
    fields: {
      name: 'name',
      site: 'site_id',
      device_type: 'device_type_id',
      role: ['role_id', 'device_role_id'],
      platform: 'platform_id',
      tenant: 'tenant_id',
      location: 'location_id',
      rack: 'rack_id',
      position: 'position',
      cluster: 'cluster_id',
      primary_ip4: 'primary_ip4_id',
      primary_ip6: 'primary_ip6_id',
      status: 'status',
      serial: 'serial',
      asset_tag: 'asset_tag',
      comments: 'comments',
    },
  },
  {
    table: 'dcim_interface',
    resource: 'interface',
    fields: {
      device: 'device_id',
      name: 'name',
      type: 'type',
      enabled: 'enabled',
      mtu: 'mtu',
      mac_address: mac,
      description: 'description',
    },
  },
  {
    table: 'virtualization_virtualmachine',
    resource: 'virtual_machine',
    fields: {
      name: 'name',
      status: 'status',
      site: 'site_id',
      cluster: 'cluster_id',
      role: 'role_id',
      tenant: 'tenant_id',
      platform: 'platform_id',
      primary_ip4: 'primary_ip4_id',
      primary_ip6: 'primary_ip6_id',
      vcpus: 'vcpus',
      memory: 'memory',
      disk: 'disk',
      description: 'description',
      comments: 'comments',
    },
  },
  {
    table: 'virtualization_vminterface',
    resource: 'vminterface',
    fields: {
      virtual_machine: 'virtual_machine_id',
      name: 'name',
      enabled: 'enabled',
      mtu: 'mtu',
      mac_address: mac,
      description: 'description',
    },
  },
  {
    table: 'ipam_vlan',
    resource: 'vlan',
    fields: {
      vid: 'vid',
      name: 'name',
      site: 'site_id',
      status: 'status',
      tenant: 'tenant_id',
      description: 'description',
    },
  },
  {
    table: 'ipam_prefix',
    resource: 'prefix',
    fields: {
      prefix: 'prefix',
      status: 'status',
      site: scopeSite,
      vlan: 'vlan_id',
      tenant: 'tenant_id',
      description: 'description',
    },
  },
  {
    table: 'ipam_ipaddress',
    resource: 'ip_address',
    fields: {
      address: 'address',
      status: 'status',
      dns_name: 'dns_name',
      interface: { special: 'assigned_interface' },
      vminterface: { special: 'assigned_vminterface' },
      tenant: 'tenant_id',
      description: 'description',
    },
  },
  {
    table: 'ipam_service',
    resource: 'service',
    fields: {
      device: 'device_id',
      virtual_machine: 'virtual_machine_id',
      name: 'name',
      protocol: 'protocol',
      ports: 'ports',
      description: 'description',
      comments: 'comments',
    },
  },
];

/** Columns every taken table has that the writer fills itself (the id, the times, custom field data). */
export const ROW_COLUMNS: readonly string[] = ['id', 'created', 'last_updated', 'custom_field_data'];

/**
 * NetBox's caches of what the data says (tree positions, natural-sort keys, counters, cached scope
 * relations, cable paths): recomputed by NetBox, never data of their own, so not reported as left.
 */
export const INTERNAL_COLUMNS: readonly RegExp[] = [
  /^_/, // _name, _path_id, _children, _depth, _abs_weight, _site_id, ...
  /^(lft|rght|tree_id|level)$/,
  /_count$/, // component counters of devices, device types and VMs
];

/** Tables that are NetBox's own machinery rather than inventory: reported as left, with this reason. */
export const MACHINERY_TABLES: readonly RegExp[] = [
  /^(django|auth|social_auth|taggit|users|core|netbox_devtools)_/,
  /^extras_(cachedvalue|dashboard|bookmark|notification|subscription|objectchange|stagedchange|branch|script)/,
  /^dcim_cablepath$/,
];

/** Tables read for a taken table's sake (tag assignments, custom field types and choices): their own lines. */
export const SUPPORT_TABLES = {
  tagged: 'extras_taggeditem',
  cfObjectTypes: ['extras_customfield_object_types', 'extras_customfield_content_types'],
  cfChoices: 'extras_customfieldchoiceset',
} as const;

/** NetBox's custom field types -> the product's; the others (decimal, datetime, object, ...) are left. */
export const CF_TYPES: Readonly<Record<string, string>> = {
  text: 'text',
  longtext: 'text',
  integer: 'integer',
  boolean: 'boolean',
  date: 'date',
  url: 'url',
  json: 'json',
  select: 'select',
  multiselect: 'multi-select',
};
