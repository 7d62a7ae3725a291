import type { CustomFieldDef, CustomFieldType, ResourceDef } from '../types.js';
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

const FILTER_LOGIC: readonly CustomFieldDef['filter_logic'][] = ['loose', 'exact', 'disabled'];
const isType = (v: unknown): v is CustomFieldType => CUSTOM_FIELD_TYPES.some((t) => t === v);
const isLogic = (v: unknown): v is CustomFieldDef['filter_logic'] => FILTER_LOGIC.some((l) => l === v);
const isStrings = (v: unknown): v is readonly string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

type Row = Readonly<Record<string, unknown>>;

/**
 * Whether a row holds a custom field definition as the filters and the value checks read it: the fields they read
 * have their kinds' values. `label` is not read by them (a row may hold null there); `default` is any JSON.
 */
export function isCustomFieldDef(row: Row): row is Row & CustomFieldDef {
  return (
    typeof row.id === 'string' &&
    typeof row.name === 'string' &&
    isType(row.type) &&
    isLogic(row.filter_logic) &&
    isStrings(row.content_types) &&
    isStrings(row.choices) &&
    typeof row.required === 'boolean'
  );
}

/**
 * A stored custom_field row as its definition (the same object, checked). The store holds only rows written
 * through the resource's validation, so a row that is not one is a damaged store: an error naming it.
 */
export function customFieldDefOf(row: Row): CustomFieldDef {
  if (isCustomFieldDef(row)) return row;
  throw new Error(`custom_field ${String(row.id)}: the stored row is not a custom field definition`);
}
