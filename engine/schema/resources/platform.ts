import type { ResourceDef } from '../types.js';
import { inventoryBaseFields, descriptionField, taggableFields, uniqueNameSlugFields } from '../common-fields.js';

export const platform: ResourceDef = {
  name: 'platform',
  app: 'dcim',
  plural: 'platforms',
  label: 'Platform',
  description: 'The software a device runs (operating system), optionally of one manufacturer',
  refField: 'slug',
  displayField: 'name',
  fields: [
    ...inventoryBaseFields,
    ...uniqueNameSlugFields,
    {
      name: 'manufacturer',
      kind: 'fk',
      counted: true,
      label: 'Manufacturer',
      target: 'manufacturer',
      nullable: true,
      onDelete: 'protect',
    },
    descriptionField,
    ...taggableFields,
  ],
};
