// JSON Schemas of one registry field, as read (serializer output) and as written (what
// engine/schema/validate-input.ts accepts: the document must never forbid a body the registry takes).
import { UUID_IDS, type IdStyle } from '../../engine/schema/id-style.js';
import type { FieldDef } from '../../engine/schema/types.js';
import { idSchema, INTEGER_ID, INTEGER_ID_WRITTEN, integerIds, UUID_PATTERN } from './id-schemas.js';
import { orNull, ref, pascal, type JsonSchema } from './types.js';

export { UUID_PATTERN };
const SLUG_PATTERN = '^[-a-zA-Z0-9_]+$';
// normalizeMac() (engine/schema/normalize.ts), surrounding blanks allowed as it trims.
const MAC_PATTERN =
  '^\\s*(?:[0-9A-Fa-f]{2}([:-]?)(?:[0-9A-Fa-f]{2}\\1){4}[0-9A-Fa-f]{2}' +
  '|[0-9A-Fa-f]{4}\\.[0-9A-Fa-f]{4}\\.[0-9A-Fa-f]{4})\\s*$';
const INTEGER_TEXT = '^\\s*-?\\d{1,15}\\s*$';
const BOOLEAN_WORDS = ['true', 'True', 'TRUE', '1', 'yes', 'on', 'false', 'False', 'FALSE', '0', 'no', 'off'];

const uuid: JsonSchema = { type: 'string', format: 'uuid', pattern: UUID_PATTERN };

function describe(f: FieldDef, s: JsonSchema): JsonSchema {
  const out: JsonSchema = { title: f.label, ...s };
  if (f.default !== undefined && !f.readOnly) out.default = f.default;
  return out;
}

function stringWrite(f: FieldDef): JsonSchema {
  const s: JsonSchema = { type: 'string' };
  if (f.maxLength !== undefined) s.maxLength = f.maxLength;
  if (f.required) s.minLength = 1;
  // validate-input checks the pattern on non-empty values only
  if (f.kind === 'slug') s.pattern = SLUG_PATTERN;
  else if (f.pattern) s.pattern = f.required ? f.pattern : `^$|${f.pattern}`;
  return s;
}

function integerWrite(f: FieldDef): JsonSchema {
  // toInteger() takes a JSON number or a decimal string; the bounds are checked on both by the
  // server, the schema can state them for numbers only.
  const s: JsonSchema = {
    type: ['integer', 'string'],
    pattern: INTEGER_TEXT,
    description: 'A whole number (a decimal string is accepted too).',
  };
  if (f.min !== undefined) s.minimum = f.min;
  if (f.max !== undefined) s.maximum = f.max;
  return s;
}

/** The value accepted for a writable field (null handled by the caller). */
function writeValue(f: FieldDef, ids: IdStyle): JsonSchema {
  switch (f.kind) {
    case 'string':
    case 'slug':
      return stringWrite(f);
    case 'integer':
      return integerWrite(f);
    case 'boolean':
      return {
        anyOf: [
          { type: 'boolean' },
          { enum: [...BOOLEAN_WORDS, 0, 1], description: 'also accepted: true/false words, 0 and 1' },
        ],
      };
    case 'choice':
      return {
        type: 'string',
        enum: f.choices!.map((c) => c.value),
        description: f.choices!.map((c) => `\`${c.value}\`: ${c.display}`).join(', '),
      };
    case 'fk': {
      const id = idSchema(f.target!, ids, uuid, INTEGER_ID_WRITTEN);
      return {
        anyOf: [
          { ...id, description: `id of a ${f.target}` },
          { type: 'object', required: ['id'], properties: { id } },
          {
            type: 'object',
            minProperties: 1,
            additionalProperties: { type: ['string', 'integer'] },
            description: `the one ${f.target} whose fields have these values (e.g. {"slug": "ams01"})`,
          },
        ],
      };
    }
    case 'prefix':
      return { type: 'string', description: 'CIDR with host bits clear', examples: ['10.0.0.0/24', '2001:db8::/48'] };
    case 'address':
      return {
        type: 'string',
        description: 'address/length (a bare address means a host route)',
        examples: ['10.0.0.1/24', '2001:db8::1/64'],
      };
    case 'mac':
      return {
        type: 'string',
        pattern: f.nullable ? `^$|${MAC_PATTERN}` : MAC_PATTERN,
        description: 'any common spelling; stored as AA:BB:CC:00:11:22',
        examples: ['aa:bb:cc:00:11:22'],
      };
    case 'string_list':
      return { type: 'array', items: { type: 'string' } };
    case 'json':
      return {};
    case 'tags':
      return tagsWrite(ids);
    case 'custom_fields':
      return {
        type: 'object',
        description: 'keyed by custom field name; checked against the custom field definitions',
        additionalProperties: true,
      };
    case 'uuid':
    case 'ip':
    case 'datetime':
      return {};
  }
}

/** Tags by slug or name (text), or by id: a number in an integer store (validate-input's tagRefsOf). */
function tagsWrite(ids: IdStyle): JsonSchema {
  const numbered = integerIds('tag', ids);
  const key = (k: string): JsonSchema =>
    k === 'id' && numbered
      ? { type: ['string', 'integer'], minimum: 1, maximum: Number.MAX_SAFE_INTEGER }
      : { type: 'string' };
  return {
    type: 'array',
    description: numbered ? 'tag slugs, names or ids (numbers)' : 'tag slugs, names or ids',
    items: {
      anyOf: [
        { type: 'string' },
        ...(numbered ? [{ ...INTEGER_ID, description: 'a tag id' }] : []),
        {
          type: 'object',
          description: 'a tag by id, slug or name',
          anyOf: ['id', 'slug', 'name'].map((k) => ({ required: [k], properties: { [k]: key(k) } })),
        },
      ],
    },
  };
}

export function writeSchema(f: FieldDef, ids: IdStyle = UUID_IDS): JsonSchema {
  if (f.readOnly || (f.hidden && !f.writeOnly))
    return { readOnly: true, description: `${f.label} (read-only: ignored when written)` };
  const v = writeValue(f, ids);
  if (f.writeOnly)
    return { ...describe(f, v), writeOnly: true, description: `${f.label} (write-only: never read back)` };
  if (f.kind === 'tags' || f.kind === 'custom_fields') return describe(f, v);
  if (f.nullable) return describe(f, f.kind === 'json' ? {} : orNull(v));
  return describe(f, f.kind === 'json' ? { not: { type: 'null' } } : v);
}

/** Names of the component schemas shared by every resource. */
export const TAG_REF = 'NestedTag';
export const briefName = (resourceName: string): string => `Brief${pascal(resourceName)}`;

function readValue(f: FieldDef, ids: IdStyle): JsonSchema {
  // An object's id (a change record's changed_object_id): a number in an integer store, text where
  // it names an object with UUIDs (a lifecycle entity).
  if (f.kind === 'string' && f.objectOf && ids.name === 'integer')
    return { type: ['integer', 'string'], description: `${f.label}: a number, or text for an object with UUIDs` };
  switch (f.kind) {
    case 'uuid':
      return uuid;
    case 'string':
    case 'slug':
    case 'prefix':
    case 'address':
    case 'ip':
    case 'mac':
      return { type: 'string', ...(f.maxLength !== undefined ? { maxLength: f.maxLength } : {}) };
    case 'integer':
      return { type: 'integer' };
    case 'boolean':
      return { type: 'boolean' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'choice':
      return {
        type: 'object',
        required: ['value', 'label'],
        properties: { value: { type: 'string', enum: f.choices!.map((c) => c.value) }, label: { type: 'string' } },
      };
    case 'fk':
      return ref(briefName(f.target!));
    case 'tags':
      return { type: 'array', items: ref(TAG_REF) };
    case 'custom_fields':
      return {
        type: 'object',
        additionalProperties: true,
        description: 'every custom field defined for this type, null where unset',
      };
    case 'string_list':
      return { type: 'array', items: { type: 'string' } };
    case 'json':
      return {};
  }
}

export function readSchema(f: FieldDef, ids: IdStyle = UUID_IDS): JsonSchema {
  const v = readValue(f, ids);
  const s =
    f.kind === 'json' || f.kind === 'tags' || f.kind === 'custom_fields'
      ? v
      : f.nullable || f.kind === 'fk' || f.kind === 'choice'
        ? orNull(v)
        : v;
  return { title: f.label, ...(f.readOnly ? { readOnly: true } : {}), ...s };
}
