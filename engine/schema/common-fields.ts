// Fields every object carries, and those of taggable objects: declared once, spread into resources.
import type { Choice, FieldDef } from './types.js';

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
export const rowVersionField: FieldDef = { name: 'version', kind: 'integer', label: 'Row version', readOnly: true, hidden: true, filter: false, nullable: true };

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
export const colorField: FieldDef = { name: 'color', kind: 'string', label: 'Color', maxLength: 6, pattern: '^[0-9a-f]{6}$', default: '9e9e9e' };

export const descriptionField: FieldDef = { name: 'description', kind: 'string', label: 'Description', maxLength: 200, search: true };

/** Choices from [value, display] pairs. */
export function choices(...pairs: readonly (readonly [string, string])[]): readonly Choice[] {
  return pairs.map(([value, display]) => ({ value, display }));
}

/** Read-only fields derived from a prefix or an address; `role` is the field network lookups use. */
export function derivedNetFields(role: 'network' | 'host'): readonly FieldDef[] {
  return [
    { name: role, kind: 'ip', label: role === 'network' ? 'Network' : 'Host', readOnly: true, netRole: role, search: true },
    { name: 'broadcast', kind: 'ip', label: 'Broadcast', readOnly: true, filter: false, netPart: 'broadcast' },
    { name: 'prefix_length', kind: 'integer', label: 'Prefix length', readOnly: true, netPart: 'length' },
    { name: 'family', kind: 'integer', label: 'Family', readOnly: true, filter: false, netPart: 'family' },
  ];
}
