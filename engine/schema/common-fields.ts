// Fields every object carries, and those of taggable objects: declared once, spread into resources.
import type { Choice, CountDef, FieldDef } from './types.js';
import { deriveNetFields } from './net-derive.js';

export const baseFields: readonly FieldDef[] = [
  { name: 'id', kind: 'uuid', label: 'ID', readOnly: true },
  { name: 'created', kind: 'datetime', label: 'Created', readOnly: true },
  { name: 'last_updated', kind: 'datetime', label: 'Last updated', readOnly: true },
];

/**
 * The row's version on inventory objects: set to 1 by a create and raised by one by every change the
 * service writes, which is checked against the version it read (lost-update protection, the ETag).
 * Not part of the NetBox representation: the ETag carries it. A row without one reads as version 0.
 */
export const rowVersionField: FieldDef = {
  name: 'version',
  kind: 'integer',
  label: 'Row version',
  readOnly: true,
  hidden: true,
  filter: false,
  nullable: true,
};

/** What every inventory object carries. */
export const inventoryBaseFields: readonly FieldDef[] = [...baseFields, rowVersionField];

export const taggableFields: readonly FieldDef[] = [
  { name: 'tags', kind: 'tags', label: 'Tags' },
  { name: 'custom_fields', kind: 'custom_fields', label: 'Custom fields' },
];

/** A name and a slug, each unique, as NetBox's organizational objects (tags, sites, manufacturers, roles) have them. */
export const uniqueNameSlugFields: readonly FieldDef[] = [
  { name: 'name', kind: 'string', label: 'Name', required: true, unique: true, maxLength: 100, search: true },
  { name: 'slug', kind: 'slug', label: 'Slug', required: true, unique: true, maxLength: 100, search: true },
];

/** A colour as NetBox writes it: six lower-case hex digits. */
export const colorField: FieldDef = {
  name: 'color',
  kind: 'string',
  label: 'Color',
  maxLength: 6,
  pattern: '^[0-9a-f]{6}$',
  default: '9e9e9e',
};

export const descriptionField: FieldDef = {
  name: 'description',
  kind: 'string',
  label: 'Description',
  maxLength: 200,
  search: true,
};

/** Choices from [value, display] pairs. */
export function choices(...pairs: readonly (readonly [string, string])[]): readonly Choice[] {
  return pairs.map(([value, display]) => ({ value, display }));
}

/** The role of a device or a virtual machine (NetBox uses one set of device roles for both). */
export const deviceRoleField: FieldDef = {
  name: 'role',
  kind: 'fk',
  counted: true,
  label: 'Role',
  target: 'device_role',
  nullable: true,
  onDelete: 'protect',
};

/** The software platform a device or a virtual machine runs. */
export const platformField: FieldDef = {
  name: 'platform',
  kind: 'fk',
  counted: true,
  label: 'Platform',
  target: 'platform',
  nullable: true,
  onDelete: 'set_null',
};

/** Where in its site a device or a rack stands (NetBox's location tree inside a site). */
export const locationField: FieldDef = {
  name: 'location',
  kind: 'fk',
  counted: true,
  label: 'Location',
  target: 'location',
  nullable: true,
  onDelete: 'set_null',
};

/** A physical object's serial number and asset tag (the tag unique where set), as devices and racks have them. */
export const assetFields: readonly FieldDef[] = [
  { name: 'serial', kind: 'string', label: 'Serial number', maxLength: 50, search: true },
  {
    name: 'asset_tag',
    kind: 'string',
    label: 'Asset tag',
    maxLength: 50,
    nullable: true,
    unique: true,
    search: true,
  },
];

/**
 * An object's status: one of `pairs`, active unless set. Literal, so that rows typed from a literal
 * definition (RowOf) keep the field.
 */
export function statusField(...pairs: readonly (readonly [string, string])[]) {
  return {
    name: 'status',
    kind: 'choice',
    label: 'Status',
    default: 'active',
    choices: choices(...pairs),
  } as const satisfies FieldDef;
}

/** The statuses a device and a virtual machine share, in NetBox's order (a device adds `inventory`). */
export const hostStatuses: readonly (readonly [string, string])[] = [
  ['offline', 'Offline'],
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['staged', 'Staged'],
  ['failed', 'Failed'],
];

/** The life of a place, sites and locations alike (NetBox's site and location statuses). */
export const placeStatusField: FieldDef = statusField(
  ['planned', 'Planned'],
  ['staging', 'Staging'],
  ['active', 'Active'],
  ['decommissioning', 'Decommissioning'],
  ['retired', 'Retired'],
);

/**
 * What a change did to its object: on the change record and on each webhook delivery of it. Literal,
 * so that the rows typed from those definitions (RowOf) keep the field.
 */
export const changeActionField = {
  name: 'action',
  kind: 'choice',
  label: 'Action',
  readOnly: true,
  choices: choices(['create', 'Created'], ['update', 'Updated'], ['delete', 'Deleted']),
} as const satisfies FieldDef;

/** Read-only fields derived from a prefix or an address; `role` is the field network lookups use. */
export function derivedNetFields(role: 'network' | 'host'): readonly FieldDef[] {
  return [
    {
      name: role,
      kind: 'ip',
      label: role === 'network' ? 'Network' : 'Host',
      readOnly: true,
      netRole: role,
      search: true,
    },
    { name: 'broadcast', kind: 'ip', label: 'Broadcast', readOnly: true, filter: false, netPart: 'broadcast' },
    { name: 'prefix_length', kind: 'integer', label: 'Prefix length', readOnly: true, netPart: 'length' },
    { name: 'family', kind: 'integer', label: 'Family', readOnly: true, filter: false, netPart: 'family' },
  ];
}

/**
 * An IP object keyed by its text (a prefix, an address): the text is its reference and its display,
 * and the network fields are derived from it (`role`: network for a prefix, host for an address).
 */
export function netKeyed(name: string, role: 'network' | 'host') {
  return {
    refField: name,
    displayField: name,
    derive: (row: Record<string, unknown>) => deriveNetFields(row[name] as string, role),
  };
}

/** Such an object's text field (literal, for RowOf), then the read-only fields derived from it. */
export function netTextFields<const N extends string, const K extends 'prefix' | 'address'>(
  name: N,
  kind: K,
  label: string,
  role: 'network' | 'host',
) {
  return [{ name, kind, label, required: true, filter: false } as const, ...derivedNetFields(role)] as const;
}

/** What device and VM interfaces both have. */
export const interfaceFields: readonly FieldDef[] = [
  { name: 'enabled', kind: 'boolean', label: 'Enabled', default: true },
  { name: 'mtu', kind: 'integer', label: 'MTU', nullable: true, min: 1, max: 65536 },
  { name: 'mac_address', kind: 'mac', label: 'MAC address', nullable: true },
];

/** A tree of named groups (regions, site groups, tenant groups): name, unique slug, parent, description. */
export function groupTreeFields(self: string): readonly FieldDef[] {
  return [
    { name: 'name', kind: 'string', label: 'Name', required: true, maxLength: 100, search: true },
    { name: 'slug', kind: 'slug', label: 'Slug', required: true, unique: true, maxLength: 100, search: true },
    { name: 'parent', kind: 'fk', label: 'Parent', target: self, nullable: true, onDelete: 'cascade' },
    descriptionField,
  ];
}

/** The tenant an object belongs to; its group filters as `tenant_group` (NetBox's tenancy fields). */
export const tenantField: FieldDef = {
  name: 'tenant',
  kind: 'fk',
  label: 'Tenant',
  target: 'tenant',
  nullable: true,
  onDelete: 'protect',
  counted: true,
};

/** A device's or a virtual machine's primary addresses (NetBox prefers IPv6 for `primary_ip`); the
 * IP addresses come later in the registry (they sit on the host's interfaces), so the references are deferred. */
export const primaryIpFields: readonly FieldDef[] = [
  {
    name: 'primary_ip4',
    kind: 'fk',
    label: 'Primary IPv4',
    target: 'ip_address',
    nullable: true,
    onDelete: 'set_null',
    deferred: true,
  },
  {
    name: 'primary_ip6',
    kind: 'fk',
    label: 'Primary IPv6',
    target: 'ip_address',
    nullable: true,
    onDelete: 'set_null',
    deferred: true,
  },
  {
    name: 'primary_ip',
    kind: 'fk',
    label: 'Primary IP',
    target: 'ip_address',
    nullable: true,
    onDelete: 'set_null',
    deferred: true,
    readOnly: true,
    filter: false,
  },
];

/** `primary_ip` from the two writable ones, as NetBox serves it (IPv6 first). */
export const derivePrimaryIp = (row: Record<string, unknown>): Record<string, unknown> => ({
  primary_ip: row.primary_ip6 ?? row.primary_ip4 ?? null,
});

/** A related count: rows of `resource` whose `field` names the object (`count('device', 'site')` is `device_count`). */
export function count(resource: string, field: string, name = `${resource.replace(/_/g, '')}_count`): CountDef {
  return { name, label: `${resource.replace(/_/g, ' ')} count`.replace(/^./, (c) => c.toUpperCase()), resource, field };
}
