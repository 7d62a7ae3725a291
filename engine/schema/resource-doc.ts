// The field reference of docs/resources.md, generated from the registry.
import { RESOURCES, resourcePath } from './registry.js';
import type { FieldDef } from './types.js';
import { genericRefs, type GenericRef } from './generic-refs.js';

const KIND_TEXT: Record<FieldDef['kind'], string> = {
  uuid: 'UUID',
  string: 'text',
  slug: 'slug',
  integer: 'integer',
  boolean: 'boolean',
  choice: 'choice',
  fk: 'id of',
  tags: 'tag slugs or ids (read: objects)',
  custom_fields: 'object',
  prefix: 'CIDR (host bits clear)',
  address: 'address/length',
  ip: 'address text',
  mac: 'MAC address',
  datetime: 'date-time',
  json: 'JSON',
  string_list: 'list of text',
};

function fieldRow(f: FieldDef): string {
  const type = f.kind === 'fk' ? `id of ${f.target}` : KIND_TEXT[f.kind];
  const notes: string[] = [];
  if (f.choices) notes.push(f.choices.map((c) => `\`${c.value}\``).join(', '));
  if (f.maxLength) notes.push(`≤ ${f.maxLength} chars`);
  if (f.min !== undefined || f.max !== undefined) notes.push(`${f.min ?? ''}–${f.max ?? ''}`);
  if (f.unique) notes.push('unique');
  if (f.nullable) notes.push('nullable');
  if (f.default !== undefined && f.default !== null && !(Array.isArray(f.default) && !f.default.length))
    notes.push(`default \`${JSON.stringify(f.default)}\``);
  if (f.onDelete) notes.push(`on delete: ${f.onDelete.replace('_', ' ')}`);
  if (f.alias) notes.push(`also \`${f.alias}\` (NetBox 3.6's name: served beside it, written instead of it)`);
  const access = f.readOnly ? 'read-only' : f.writeOnly ? 'write-only' : f.required ? 'required' : 'optional';
  return `| \`${f.name}\` | ${type} | ${access} | ${notes.join('; ')} |`;
}

/** A generic reference's rows: the content type and id (written together), the object (read). */
const genericRows = (g: GenericRef): string[] => {
  const fks = g.fields.map((f) => `\`${g.typeOf.get(f.name)}\` (its \`${f.name}\`)`).join(', ');
  return [
    `| \`${g.typeKey}\` | content type | optional | ${fks} or null; written with \`${g.idKey}\` |`,
    `| \`${g.idKey}\` | id | optional | the id of that object, or null |`,
    `| \`${g.name}\` | object | read-only | the brief form of that object, or null |`,
  ];
};

export function resourceReference(): string {
  return RESOURCES.filter((r) => r.inventory !== false)
    .map((r) =>
      [
        `### ${r.label} — \`${resourcePath(r)}\``,
        '',
        r.description + '.',
        ...(r.uniqueTogether ?? []).map((g) => `Unique together: ${g.map((n) => `\`${n}\``).join(' + ')}.`),
        '',
        '| field | type | access | notes |',
        '|---|---|---|---|',
        ...r.fields.filter((f) => !f.hidden || f.writeOnly).map(fieldRow),
        ...(r.servedNull ?? []).map((c) => `| \`${c.name}\` | null | read-only | NetBox's field, always null |`),
        ...genericRefs(r).flatMap(genericRows),
        ...(r.counts ?? []).map(
          (c) => `| \`${c.name}\` | integer | read-only | ${c.resource} objects whose \`${c.field}\` is this one |`,
        ),
      ].join('\n'),
    )
    .join('\n\n');
}
