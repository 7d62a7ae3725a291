import type { ResourceDef } from '../types.js';
import { baseFields, choices, descriptionField, taggableFields } from '../common-fields.js';
import { deriveNetFields } from '../net-derive.js';

export const prefix: ResourceDef = {
  name: 'prefix', app: 'ipam', plural: 'prefixes', label: 'Prefix', description: 'An IPv4 or IPv6 network',
  refField: 'prefix', displayField: 'prefix',
  derive: (row) => deriveNetFields(row.prefix as string, 'network'),
  fields: [
    ...baseFields,
    { name: 'prefix', kind: 'prefix', label: 'Prefix', required: true, filter: false },
    { name: 'network', kind: 'ip', label: 'Network', readOnly: true, netRole: 'network', search: true },
    { name: 'broadcast', kind: 'ip', label: 'Broadcast', readOnly: true, filter: false },
    { name: 'prefix_length', kind: 'integer', label: 'Prefix length', readOnly: true },
    { name: 'family', kind: 'integer', label: 'Family', readOnly: true, filter: false },
    { name: 'status', kind: 'choice', label: 'Status', default: 'active',
      choices: choices(['container', 'Container'], ['active', 'Active'], ['reserved', 'Reserved'], ['deprecated', 'Deprecated']) },
    { name: 'site', kind: 'fk', label: 'Site', target: 'site', nullable: true, onDelete: 'protect' },
    { name: 'vlan', kind: 'fk', label: 'VLAN', target: 'vlan', nullable: true, onDelete: 'set_null' },
    descriptionField,
    ...taggableFields,
  ],
};
