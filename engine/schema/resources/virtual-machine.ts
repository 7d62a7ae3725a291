import type { ResourceDef } from '../types.js';
import { choices, count, derivePrimaryIp, descriptionField, inventoryBaseFields, primaryIpFields, taggableFields, tenantField } from '../common-fields.js';

export const virtualMachine: ResourceDef = {
  name: 'virtual_machine', app: 'virtualization', plural: 'virtual-machines', label: 'Virtual machine', description: 'A virtual machine, in a cluster or at a site',
  refField: 'name', displayField: 'name', uniqueTogether: [['cluster', 'name']],
  derive: derivePrimaryIp,
  fields: [
    ...inventoryBaseFields,
    { name: 'name', kind: 'string', label: 'Name', required: true, maxLength: 64, search: true },
    { name: 'status', kind: 'choice', label: 'Status', default: 'active',
      choices: choices(['offline', 'Offline'], ['active', 'Active'], ['planned', 'Planned'], ['staged', 'Staged'], ['failed', 'Failed'], ['decommissioning', 'Decommissioning']) },
    { name: 'site', kind: 'fk', label: 'Site', target: 'site', nullable: true, onDelete: 'protect' },
    { name: 'cluster', kind: 'fk', label: 'Cluster', target: 'cluster', nullable: true, onDelete: 'protect' },
    { name: 'role', kind: 'fk', label: 'Role', target: 'device_role', nullable: true, onDelete: 'protect' },
    tenantField,
    { name: 'platform', kind: 'fk', label: 'Platform', target: 'platform', nullable: true, onDelete: 'set_null' },
    ...primaryIpFields,
    { name: 'vcpus', kind: 'integer', label: 'vCPUs', nullable: true, min: 1, max: 10000 },
    { name: 'memory', kind: 'integer', label: 'Memory (MB)', nullable: true, min: 0, max: 2147483647 },
    { name: 'disk', kind: 'integer', label: 'Disk (GB)', nullable: true, min: 0, max: 2147483647 },
    descriptionField,
    { name: 'comments', kind: 'string', label: 'Comments', maxLength: 2000 },
    ...taggableFields,
  ],
  counts: [count('vminterface', 'virtual_machine', 'interface_count')],
};
