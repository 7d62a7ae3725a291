import type { ResourceDef } from '../types.js';
import { inventoryBaseFields, descriptionField, taggableFields } from '../common-fields.js';

export const manufacturer: ResourceDef = {
  name: 'manufacturer', app: 'dcim', plural: 'manufacturers', label: 'Manufacturer', description: 'A maker of devices (and of the platforms they run)',
  refField: 'slug', displayField: 'name',
  fields: [
    ...inventoryBaseFields,
    { name: 'name', kind: 'string', label: 'Name', required: true, unique: true, maxLength: 100, search: true },
    { name: 'slug', kind: 'slug', label: 'Slug', required: true, unique: true, maxLength: 100, search: true },
    descriptionField,
    ...taggableFields,
  ],
};
