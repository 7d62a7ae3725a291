import type { ResourceDef } from '../types.js';
import { statusField, descriptionField, inventoryBaseFields, taggableFields, tenantField } from '../common-fields.js';

export const cluster: ResourceDef = {
  name: 'cluster',
  app: 'virtualization',
  plural: 'clusters',
  label: 'Cluster',
  description: 'A pool of hosts running virtual machines',
  refField: 'name',
  displayField: 'name',
  uniqueTogether: [
    ['name', 'group'],
    ['name', 'site'],
  ],
  fields: [
    ...inventoryBaseFields,
    { name: 'name', kind: 'string', label: 'Name', required: true, maxLength: 100, search: true },
    {
      name: 'type',
      kind: 'fk',
      counted: true,
      label: 'Type',
      target: 'cluster_type',
      required: true,
      onDelete: 'protect',
      relationName: 'cluster_type',
    },
    {
      name: 'group',
      kind: 'fk',
      counted: true,
      label: 'Group',
      target: 'cluster_group',
      nullable: true,
      onDelete: 'protect',
      relationName: 'cluster_group',
    },
    statusField(
      ['planned', 'Planned'],
      ['staging', 'Staging'],
      ['active', 'Active'],
      ['decommissioning', 'Decommissioning'],
      ['offline', 'Offline'],
    ),
    tenantField,
    { name: 'site', kind: 'fk', counted: true, label: 'Site', target: 'site', nullable: true, onDelete: 'protect' },
    descriptionField,
    { name: 'comments', kind: 'string', label: 'Comments', maxLength: 2000 },
    ...taggableFields,
  ],
};
