import type { ResourceDef } from '../types.js';
import { inventoryBaseFields, descriptionField, taggableFields } from '../common-fields.js';

export const platform: ResourceDef = {
  name: 'platform', app: 'dcim', plural: 'platforms', label: 'Platform', description: 'The software a device runs (operating system), optionally of one manufacturer',
  refField: 'slug', displayField: 'name',
  fields: [
    ...inventoryBaseFields,
    { name: 'name', kind: 'string', label: 'Name', required: true, unique: true, maxLength: 100, search: true },
    { name: 'slug', kind: 'slug', label: 'Slug', required: true, unique: true, maxLength: 100, search: true },
    { name: 'manufacturer', kind: 'fk', label: 'Manufacturer', target: 'manufacturer', nullable: true, onDelete: 'protect' },
    descriptionField,
    ...taggableFields,
  ],
};
