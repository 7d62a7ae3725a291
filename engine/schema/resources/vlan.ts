import type { ResourceDef } from '../types.js';
import { inventoryBaseFields, statusField, descriptionField, taggableFields, tenantField } from '../common-fields.js';

export const vlan: ResourceDef = {
  name: 'vlan',
  app: 'ipam',
  plural: 'vlans',
  label: 'VLAN',
  description: 'An 802.1Q VLAN',
  refField: 'name',
  displayField: 'name',
  fields: [
    ...inventoryBaseFields,
    { name: 'vid', kind: 'integer', label: 'VLAN ID', required: true, min: 1, max: 4094 },
    { name: 'name', kind: 'string', label: 'Name', required: true, maxLength: 64, search: true },
    { name: 'site', kind: 'fk', counted: true, label: 'Site', target: 'site', nullable: true, onDelete: 'protect' },
    statusField(['active', 'Active'], ['reserved', 'Reserved'], ['deprecated', 'Deprecated']),
    tenantField,
    descriptionField,
    ...taggableFields,
  ],
};
