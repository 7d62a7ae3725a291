import type { ResourceDef } from '../types.js';
import { inventoryBaseFields, choices, count, derivePrimaryIp, primaryIpFields, taggableFields, tenantField } from '../common-fields.js';

export const device: ResourceDef = {
  name: 'device', app: 'dcim', plural: 'devices', label: 'Device', description: 'A piece of network hardware at a site',
  refField: 'name', displayField: 'name', uniqueTogether: [['site', 'name']],
  derive: derivePrimaryIp,
  fields: [
    ...inventoryBaseFields,
    { name: 'name', kind: 'string', label: 'Name', required: true, maxLength: 64, search: true },
    { name: 'site', kind: 'fk', label: 'Site', target: 'site', required: true, onDelete: 'protect' },
    // NetBox requires a type and a role; here they stay optional so devices written before keep working.
    { name: 'device_type', kind: 'fk', label: 'Device type', target: 'device_type', nullable: true, onDelete: 'protect' },
    { name: 'role', kind: 'fk', label: 'Role', target: 'device_role', nullable: true, onDelete: 'protect' },
    { name: 'platform', kind: 'fk', label: 'Platform', target: 'platform', nullable: true, onDelete: 'set_null' },
    tenantField,
    { name: 'location', kind: 'fk', label: 'Location', target: 'location', nullable: true, onDelete: 'set_null' },
    { name: 'rack', kind: 'fk', label: 'Rack', target: 'rack', nullable: true, onDelete: 'set_null' },
    { name: 'position', kind: 'integer', label: 'Position (U)', nullable: true, min: 1, max: 100 },
    { name: 'cluster', kind: 'fk', label: 'Cluster', target: 'cluster', nullable: true, onDelete: 'set_null' },
    ...primaryIpFields,
    { name: 'status', kind: 'choice', label: 'Status', default: 'active',
      choices: choices(['offline', 'Offline'], ['active', 'Active'], ['planned', 'Planned'], ['staged', 'Staged'],
        ['failed', 'Failed'], ['inventory', 'Inventory'], ['decommissioning', 'Decommissioning']) },
    { name: 'serial', kind: 'string', label: 'Serial number', maxLength: 50, search: true },
    { name: 'asset_tag', kind: 'string', label: 'Asset tag', maxLength: 50, nullable: true, unique: true, search: true },
    { name: 'comments', kind: 'string', label: 'Comments', maxLength: 2000 },
    ...taggableFields,
  ],
  counts: [count('interface', 'device')],
};
