// Checks of a whole row that no single field can make, by resource: run on the row as it would be
// stored (after a create's defaults or an update's merge), errors by field.
import { checkOne } from './custom-field-values.js';
import { MSG } from './messages.js';
import { CUSTOM_FIELD_CONTENT_TYPES } from './registry.js';
import type { CustomFieldDef } from './types.js';
import type { FieldErrors } from './validate-input.js';

type Row = Readonly<Record<string, unknown>>;

/** A custom field definition: known content types, choices only on select types, a default its
 * own type and choices accept. */
function customFieldDefinition(row: Row): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  for (const ct of (row.content_types as string[] | undefined) ?? [])
    if (!CUSTOM_FIELD_CONTENT_TYPES.includes(ct)) add('content_types', MSG.cfContentType(ct, CUSTOM_FIELD_CONTENT_TYPES));
  const def = row as unknown as CustomFieldDef;
  const select = def.type === 'select' || def.type === 'multi-select';
  if (!select && (def.choices ?? []).length) add('choices', MSG.cfChoicesNotSelect);
  if (def.default !== null && def.default !== undefined) {
    const r = checkOne({ ...def, choices: def.choices ?? [] }, def.default);
    if (typeof r === 'string') add('default', r);
  }
  return errors;
}

export const ROW_CHECKS: Readonly<Record<string, (row: Row) => FieldErrors>> = {
  custom_field: customFieldDefinition,
};
