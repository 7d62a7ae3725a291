import type { ResourceDef } from '../types.js';
import { inventoryBaseFields, descriptionField, taggableFields, uniqueNameSlugFields } from '../common-fields.js';

export const manufacturer: ResourceDef = {
  name: 'manufacturer',
  app: 'dcim',
  plural: 'manufacturers',
  label: 'Manufacturer',
  description: 'A maker of devices (and of the platforms they run)',
  refField: 'slug',
  displayField: 'name',
  fields: [...inventoryBaseFields, ...uniqueNameSlugFields, descriptionField, ...taggableFields],
};
