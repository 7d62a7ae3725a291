import type { ResourceDef } from '../types.js';
import { descriptionField, inventoryBaseFields, taggableFields, uniqueNameSlugFields } from '../common-fields.js';

export const tenant: ResourceDef = {
  name: 'tenant',
  app: 'tenancy',
  plural: 'tenants',
  label: 'Tenant',
  description: 'A customer or department that objects belong to',
  refField: 'slug',
  displayField: 'name',
  fields: [
    ...inventoryBaseFields,
    ...uniqueNameSlugFields,
    {
      name: 'group',
      kind: 'fk',
      counted: true,
      label: 'Group',
      target: 'tenant_group',
      nullable: true,
      onDelete: 'set_null',
      relationName: 'tenant_group',
    },
    descriptionField,
    { name: 'comments', kind: 'string', label: 'Comments', maxLength: 2000 },
    ...taggableFields,
  ],
};
