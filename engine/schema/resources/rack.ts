import type { ResourceDef } from '../types.js';
import { choices, count, descriptionField, inventoryBaseFields, taggableFields, tenantField } from '../common-fields.js';

export const rack: ResourceDef = {
  name: 'rack', app: 'dcim', plural: 'racks', label: 'Rack', description: 'A frame of rack units at a site, optionally in a location',
  refField: 'name', displayField: 'name', uniqueTogether: [['location', 'name']],
  fields: [
    ...inventoryBaseFields,
    { name: 'name', kind: 'string', label: 'Name', required: true, maxLength: 100, search: true },
    { name: 'facility_id', kind: 'string', label: 'Facility ID', maxLength: 50, nullable: true, search: true },
    { name: 'site', kind: 'fk', label: 'Site', target: 'site', required: true, onDelete: 'protect' },
    { name: 'location', kind: 'fk', label: 'Location', target: 'location', nullable: true, onDelete: 'set_null' },
    tenantField,
    { name: 'status', kind: 'choice', label: 'Status', default: 'active',
      choices: choices(['reserved', 'Reserved'], ['available', 'Available'], ['planned', 'Planned'], ['active', 'Active'], ['deprecated', 'Deprecated']) },
    { name: 'role', kind: 'fk', label: 'Role', target: 'rack_role', nullable: true, onDelete: 'set_null', relationName: 'rack_role' },
    { name: 'serial', kind: 'string', label: 'Serial number', maxLength: 50, search: true },
    { name: 'asset_tag', kind: 'string', label: 'Asset tag', maxLength: 50, nullable: true, unique: true, search: true },
    { name: 'u_height', kind: 'integer', label: 'Height (U)', default: 42, min: 1, max: 100 },
    { name: 'desc_units', kind: 'boolean', label: 'Descending units', default: false },
    descriptionField,
    { name: 'comments', kind: 'string', label: 'Comments', maxLength: 2000 },
    ...taggableFields,
  ],
  counts: [count('device', 'rack')],
};
