// Fields every object carries, and those of taggable objects: declared once, spread into resources.
import type { Choice, FieldDef } from './types.js';

export const baseFields: readonly FieldDef[] = [
  { name: 'id', kind: 'uuid', label: 'ID', readOnly: true },
  { name: 'created', kind: 'datetime', label: 'Created', readOnly: true },
  { name: 'last_updated', kind: 'datetime', label: 'Last updated', readOnly: true },
];

export const taggableFields: readonly FieldDef[] = [
  { name: 'tags', kind: 'tags', label: 'Tags' },
  { name: 'custom_fields', kind: 'custom_fields', label: 'Custom fields' },
];

export const descriptionField: FieldDef = { name: 'description', kind: 'string', label: 'Description', maxLength: 200, search: true };

/** Choices from [value, display] pairs. */
export function choices(...pairs: readonly (readonly [string, string])[]): readonly Choice[] {
  return pairs.map(([value, display]) => ({ value, display }));
}
