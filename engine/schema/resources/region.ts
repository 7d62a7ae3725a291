import type { ResourceDef } from '../types.js';
import { inventoryBaseFields, descriptionField } from '../common-fields.js';

export const region: ResourceDef = {
  name: 'region', app: 'dcim', plural: 'regions', label: 'Region', description: 'A tree of geographic regions',
  refField: 'slug', displayField: 'name', tree: 'parent',
  fields: [
    ...inventoryBaseFields,
    { name: 'name', kind: 'string', label: 'Name', required: true, maxLength: 100, search: true },
    { name: 'slug', kind: 'slug', label: 'Slug', required: true, unique: true, maxLength: 100, search: true },
    { name: 'parent', kind: 'fk', label: 'Parent', target: 'region', nullable: true, onDelete: 'cascade' },
    descriptionField,
  ],
};
