// Component schemas of the inventory resources, derived from the registry: read, write (POST/PUT),
// patch, brief (nested references and `brief=true`) and the paginated list envelope.
import { briefFields, briefNestTargets, RESOURCES } from '../../engine/schema/registry.js';
import { UUID_IDS, type IdStyle } from '../../engine/schema/id-style.js';
import type { CountDef, FieldDef, ResourceDef } from '../../engine/schema/types.js';
import { briefName, readSchema, TAG_REF, writeSchema } from './field-schemas.js';
import { idSchema, UUID_PATTERN } from './id-schemas.js';
import { pascal, ref, type JsonSchema } from './types.js';
import { hasPrefixTree, PREFIX_TREE_FIELDS } from '../prefix-tree.js';
import { genericReadProps, genericWriteProps } from './generic-schemas.js';

export const schemaNames = (r: ResourceDef) => {
  const base = pascal(r.name);
  return { read: base, write: `${base}Write`, patch: `${base}Patch`, brief: briefName(r.name), list: `${base}List` };
};

const visible = (r: ResourceDef) => r.fields.filter((f) => !f.hidden);
const UUID_READ: JsonSchema = { type: 'string', format: 'uuid', pattern: UUID_PATTERN };
export const idUrlDisplay = (r: ResourceDef | string, ids: IdStyle): Record<string, JsonSchema> => ({
  id: { ...idSchema(r, ids, UUID_READ), readOnly: true },
  url: { type: 'string', format: 'uri', readOnly: true },
  display: { type: 'string', readOnly: true },
});

/** What serializeRows() returns for one object. */
function readObject(r: ResourceDef, ids: IdStyle): JsonSchema {
  const props: Record<string, JsonSchema> = idUrlDisplay(r, ids);
  for (const f of visible(r)) {
    if (f.name !== 'id') props[f.name] = readSchema(f, ids);
    // Deprecated, as NetBox marks it: the UI shows the field under its own name only.
    if (f.alias)
      props[f.alias] = { ...readSchema(f, ids), readOnly: true, deprecated: true, description: aliasNote(f, 'served') };
  }
  for (const c of r.servedNull ?? []) props[c.name] = { type: 'null', readOnly: true, description: nullNote(c.label) };
  Object.assign(props, genericReadProps(r, ids));
  if (hasPrefixTree(r)) for (const [name, f] of Object.entries(PREFIX_TREE_FIELDS)) props[name] = f.schema;
  for (const c of r.counts ?? []) props[c.name] = countSchema(r, c);
  return {
    type: 'object',
    title: r.label,
    description: r.description,
    required: Object.keys(props),
    properties: props,
  };
}

/** An alias's note: the field's older name (NetBox's), served beside it or taken instead of it. */
const aliasNote = (f: FieldDef, how: 'served' | 'written') =>
  how === 'served'
    ? `the same as \`${f.name}\` (its NetBox 3.6 name, served beside it)`
    : `taken as \`${f.name}\` (its NetBox 3.6 name); \`${f.name}\` wins when both are given`;
const nullNote = (label: string) =>
  `${label}: a NetBox field the product has no object for, always null (read-only, ignored when written)`;

/** A related count: read-only, derived from the references to the object. */
const countSchema = (r: ResourceDef, c: CountDef): JsonSchema => ({
  type: 'integer',
  minimum: 0,
  readOnly: true,
  description: `${c.label}: ${c.resource} objects whose ${c.field} is this ${r.label.toLowerCase()}`,
});

/** What briefOf() returns: id, url, display and the name / slug / reference field when present. */
function briefObject(r: ResourceDef, ids: IdStyle): JsonSchema {
  const props: Record<string, JsonSchema> = idUrlDisplay(r, ids);
  for (const n of briefFields(r)) props[n] = { type: 'string' };
  for (const { field, target } of briefNestTargets(r))
    props[field] = { anyOf: [briefObject(target, ids), { type: 'null' }] };
  return { type: 'object', title: `${r.label} (brief)`, required: Object.keys(props), properties: props };
}

/**
 * What validateInput() accepts: unknown keys are refused, read-only keys (and url, display) ignored.
 * `partial` for PATCH; POST and PUT require the required fields.
 */
function writeObject(r: ResourceDef, partial: boolean, ids: IdStyle): JsonSchema {
  const props: Record<string, JsonSchema> = {
    url: { readOnly: true, description: 'ignored when written' },
    display: { readOnly: true, description: 'ignored when written' },
  };
  for (const f of r.fields) {
    props[f.name] = writeSchema(f, ids);
    if (f.alias) props[f.alias] = { ...writeSchema(f, ids), deprecated: true, description: aliasNote(f, 'written') };
  }
  for (const c of r.counts ?? []) props[c.name] = { readOnly: true, description: 'ignored when written' };
  for (const c of r.servedNull ?? []) props[c.name] = { readOnly: true, description: nullNote(c.label) };
  Object.assign(props, genericWriteProps(r, ids));
  const tags = r.fields.find((f) => f.kind === 'tags');
  if (partial && tags)
    for (const [k, what] of [
      ['add_tags', 'added to'],
      ['remove_tags', 'taken off'],
    ]) {
      props[k] = {
        ...writeSchema(tags, ids),
        description: `tags ${what} those the object has when the change is made (instead of \`tags\`)`,
      };
    }
  const required = partial
    ? []
    : r.fields.filter((f) => f.required && !f.readOnly && (!f.hidden || f.writeOnly)).map((f) => f.name);
  return {
    type: 'object',
    title: `${r.label} (${partial ? 'partial update' : 'write'})`,
    description: r.description,
    ...(required.length ? { required } : {}),
    properties: props,
    additionalProperties: false,
  };
}

export function listEnvelope(item: JsonSchema, title: string): JsonSchema {
  return {
    type: 'object',
    title,
    required: ['count', 'next', 'previous', 'results'],
    properties: {
      count: { type: 'integer', minimum: 0 },
      next: { type: ['string', 'null'], format: 'uri' },
      previous: { type: ['string', 'null'], format: 'uri' },
      results: { type: 'array', items: item },
    },
  };
}

export function inventorySchemas(
  resources: readonly ResourceDef[],
  ids: IdStyle = UUID_IDS,
): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {
    [TAG_REF]: {
      type: 'object',
      title: 'Tag (nested)',
      required: ['id', 'url', 'display', 'name', 'slug', 'color'],
      properties: {
        ...idUrlDisplay('tag', ids),
        name: { type: 'string' },
        slug: { type: 'string' },
        color: { type: 'string' },
      },
    },
    FieldErrors: {
      type: 'object',
      title: 'Field errors',
      description: 'One key per bad field or parameter, each a list of messages.',
      additionalProperties: { type: 'array', items: { type: 'string' } },
      examples: [{ name: ['This field is required.'], asn: ['A valid integer is required.'] }],
    },
  };
  // Brief shapes of every resource a foreign key can name, inventory or not.
  for (const r of RESOURCES) out[schemaNames(r).brief] = briefObject(r, ids);
  for (const r of resources) {
    const n = schemaNames(r);
    out[n.read] = readObject(r, ids);
    out[n.write] = writeObject(r, false, ids);
    out[n.patch] = writeObject(r, true, ids);
    out[n.list] = listEnvelope({ anyOf: [ref(n.read), ref(n.brief)] }, `${r.label} list`);
  }
  return out;
}

/** The answer to OPTIONS on a list path (REST framework's metadata). */
export const OPTIONS_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['name', 'description', 'renders', 'parses'],
  properties: {
    name: { type: 'string' },
    description: { type: 'string' },
    renders: { type: 'array', items: { type: 'string' } },
    parses: { type: 'array', items: { type: 'string' } },
    actions: {
      type: 'object',
      properties: {
        POST: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            properties: {
              type: { type: 'string' },
              required: { type: 'boolean' },
              read_only: { type: 'boolean' },
              label: { type: 'string' },
              choices: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    value: { type: 'string' },
                    display: { type: 'string' },
                    display_name: { type: 'string', description: "As display (REST framework's name)" },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};
