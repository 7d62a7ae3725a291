import type { ResourceDef } from '../types.js';
import { groupTreeFields, inventoryBaseFields, taggableFields } from '../common-fields.js';

export const tenantGroup: ResourceDef = {
  name: 'tenant_group',
  app: 'tenancy',
  plural: 'tenant-groups',
  label: 'Tenant group',
  description: 'A tree of groups of tenants',
  refField: 'slug',
  displayField: 'name',
  tree: 'parent',
  fields: [...inventoryBaseFields, ...groupTreeFields('tenant_group'), ...taggableFields],
};
