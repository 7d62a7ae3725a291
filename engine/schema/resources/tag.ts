import type { ResourceDef } from '../types.js';
import { inventoryBaseFields, descriptionField, uniqueNameSlugFields, colorField } from '../common-fields.js';

export const tag: ResourceDef = {
  name: 'tag',
  app: 'extras',
  plural: 'tags',
  label: 'Tag',
  description: 'Labels attached to inventory objects',
  refField: 'slug',
  displayField: 'name',
  fields: [...inventoryBaseFields, ...uniqueNameSlugFields, colorField, descriptionField],
};
