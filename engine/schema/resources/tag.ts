import type { ResourceDef } from '../types.js';
import { inventoryBaseFields, descriptionField } from '../common-fields.js';

export const tag: ResourceDef = {
  name: 'tag', app: 'extras', plural: 'tags', label: 'Tag', description: 'Labels attached to inventory objects',
  refField: 'slug', displayField: 'name',
  fields: [
    ...inventoryBaseFields,
    { name: 'name', kind: 'string', label: 'Name', required: true, unique: true, maxLength: 100, search: true },
    { name: 'slug', kind: 'slug', label: 'Slug', required: true, unique: true, maxLength: 100, search: true },
    { name: 'color', kind: 'string', label: 'Color', maxLength: 6, pattern: '^[0-9a-f]{6}$', default: '9e9e9e' },
    descriptionField,
  ],
};
