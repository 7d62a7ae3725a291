import type { ResourceDef } from '../types.js';
import { inventoryBaseFields, choices, descriptionField } from '../common-fields.js';
import { CUSTOM_FIELD_TYPES } from '../types.js';

export const customField: ResourceDef = {
  name: 'custom_field',
  app: 'extras',
  plural: 'custom-fields',
  label: 'Custom field',
  description: 'User-defined fields on inventory objects; filterable as cf_<name>',
  refField: 'name',
  displayField: 'name',
  fields: [
    ...inventoryBaseFields,
    {
      name: 'name',
      kind: 'string',
      label: 'Name',
      required: true,
      unique: true,
      maxLength: 50,
      pattern: '^[a-z0-9_]+$',
      search: true,
    },
    { name: 'label', kind: 'string', label: 'Label', maxLength: 50 },
    {
      name: 'type',
      kind: 'choice',
      label: 'Type',
      default: 'text',
      choices: CUSTOM_FIELD_TYPES.map((t) => ({
        value: t,
        display: t[0].toUpperCase() + t.slice(1).replace('-s', ' s'),
      })),
    },
    {
      name: 'filter_logic',
      kind: 'choice',
      label: 'Filter logic',
      default: 'loose',
      choices: choices(['loose', 'Loose'], ['exact', 'Exact'], ['disabled', 'Disabled']),
    },
    { name: 'content_types', kind: 'string_list', label: 'Content types', required: true },
    { name: 'choices', kind: 'string_list', label: 'Choices', default: [] },
    { name: 'required', kind: 'boolean', label: 'Required', default: false },
    { name: 'default', kind: 'json', label: 'Default', nullable: true, default: null },
    descriptionField,
  ],
};
