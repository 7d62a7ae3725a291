// Query parameters of a list endpoint: paging and ordering, then every filter derived from
// filtersOf(resource) crossed with its lookups (`field`, `field__lookup`), and the custom field pattern.
import { filtersOf, type FilterSpec } from '../../engine/filters/filter-set.js';
import { CF_LOOKUPS, type LookupSpec } from '../../engine/filters/lookups.js';
import { UUID_IDS, type IdStyle } from '../../engine/schema/id-style.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import { idSchema, INTEGER_ID, integerIds } from './id-schemas.js';
import type { JsonSchema, Parameter } from './types.js';
import { ORDERABLE_KINDS } from '../routes/list-params.js';

/** limit / offset of every paginated list. */
export function limitOffsetParameters(maxPageSize: number): Parameter[] {
  return [
    {
      name: 'limit',
      in: 'query',
      description: `Page size (default 50, at most ${maxPageSize}; 0 means the maximum).`,
      schema: { type: 'integer', minimum: 0 },
    },
    { name: 'offset', in: 'query', description: 'Index of the first result.', schema: { type: 'integer', minimum: 0 } },
  ];
}

/** `ordering` over the scalar fields of a resource (server/routes/list-params.ts). */
export function orderingParameter(r: ResourceDef): Parameter {
  const orderable = r.fields.filter((f) => !f.hidden && ORDERABLE_KINDS.has(f.kind)).map((f) => f.name);
  return {
    name: 'ordering',
    in: 'query',
    description:
      `Comma list of fields, \`-\` for descending; ties broken by id. Fields: ` +
      `${orderable.map((n) => `\`${n}\``).join(', ')}.`,
    schema: { type: 'string' },
  };
}

export const BRIEF_PARAMETER: Parameter = {
  name: 'brief',
  in: 'query',
  description: 'true: only id, url, display and name/slug of each object.',
  schema: { type: 'boolean' },
};
export const EXPLAIN_PARAMETER: Parameter = {
  name: 'explain',
  in: 'query',
  description: 'true: return the query plan and the indexes used instead of results.',
  schema: { type: 'boolean' },
};

const many = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

function param(name: string, description: string, items: JsonSchema): Parameter {
  return { name, in: 'query', description, schema: many(items), style: 'form', explode: true };
}

/** Values a scalar filter takes under a lookup row: a choice field's choices where the row
 * compares whole values exactly (the bare name, `__n`), else the field's value type. */
function itemsOf(spec: Extract<FilterSpec, { type: 'scalar' }>, row: LookupSpec, idOf: JsonSchema): JsonSchema {
  switch (spec.parse) {
    case 'integer':
      return { type: 'integer' };
    case 'family':
      return { type: 'integer', enum: [4, 6] };
    case 'boolean':
      return { type: 'boolean' };
    case 'uuid':
      return idOf;
    case 'datetime':
      return { type: 'string', description: 'a date or a date-time', examples: ['2024-01-31', '2024-01-31T12:00:00Z'] };
    case 'choice':
      return row.does === 'cmp' && row.op === 'eq' && !row.ci && spec.choices
        ? { type: 'string', enum: spec.choices.map((c) => c.value) }
        : { type: 'string' };
    default:
      return { type: 'string' };
  }
}

const TEXT: JsonSchema = { type: 'string' };

/** The bare name (`base`: what it means) and one parameter per row of the spec's lookup table;
 * `__isnull` and `__empty` take booleans. */
function withLookups(
  spec: FilterSpec,
  what: string,
  base: string,
  items: (row: LookupSpec) => JsonSchema = () => TEXT,
): Parameter[] {
  const of = (row: LookupSpec) => (row.does === 'isnull' || row.does === 'empty' ? { type: 'boolean' } : items(row));
  return [
    param(spec.name, `${what}: ${base}.`, of(spec.base)),
    ...Object.entries(spec.lookups).map(([lk, row]) => param(`${spec.name}__${lk}`, `${what}: ${row.doc}.`, of(row))),
  ];
}

const EQUALS = 'equals (repeat to OR several values)';
/** What a reference filter takes. A plain one names objects with integer ids by slug or name only
 * (NetBox: `site=17` is a slug; ids go through `site_id`). */
const refWhat = (field: string, target: string, byId: boolean, tree: boolean, ids: IdStyle) =>
  `\`${field}\` by ${byId ? 'id' : `${integerIds(target, ids) ? '' : 'id or '}${target} slug/name`}, or ` +
  `\`null\`${tree ? ' (matches descendants too)' : ''}`;
/** Values of `<fk>_id`: integers (or `null`) where the target's ids are, else any text as before. */
const byIdItems = (target: string, byId: boolean, ids: IdStyle) => (): JsonSchema =>
  byId && integerIds(target, ids) ? { anyOf: [INTEGER_ID, { type: 'string', enum: ['null'] }] } : TEXT;

function specParameters(spec: FilterSpec, r: ResourceDef, ids: IdStyle): Parameter[] {
  switch (spec.type) {
    case 'scalar': {
      const idOf = idSchema(r, ids, { type: 'string', format: 'uuid' });
      return withLookups(spec, `\`${spec.field}\``, EQUALS, (row) => itemsOf(spec, row, idOf));
    }
    case 'fk':
      return withLookups(
        spec,
        refWhat(spec.field, spec.target, spec.byId, spec.tree, ids),
        EQUALS,
        byIdItems(spec.target, spec.byId, ids),
      );
    case 'tag':
      return withLookups(spec, 'tag (slug)', 'carried (several values: all of them)');
    case 'net':
      return withLookups(spec, `\`${spec.name}\``, `${spec.base.doc} (see docs/filtering.md)`);
    case 'net_alias':
      return withLookups(spec, `Nautobot 1.x convenience filter on \`${spec.field}\``, spec.base.doc);
    case 'q':
      return [
        {
          name: 'q',
          in: 'query',
          description: `Case-insensitive search over ${spec.fields.map((f) => `\`${f}\``).join(', ')}.`,
          schema: { type: 'string' },
        },
      ];
    case 'generic':
      return withLookups(
        spec,
        spec.part === 'type'
          ? `content type of the object assigned (${spec.types.map((x) => `\`${x}\``).join(', ')}), or \`null\``
          : `id of the object assigned (in ${spec.ends.map((e) => `\`${e.field}\``).join(' or ')}), or \`null\``,
        EQUALS,
      );
    case 'path':
      return withLookups(
        spec,
        refWhat(
          [...spec.via.map((h) => h.field), spec.end.field].join('.'),
          spec.end.target,
          spec.end.byId,
          spec.end.tree,
          ids,
        ),
        EQUALS,
        byIdItems(spec.end.target, spec.end.byId, ids),
      );
  }
}

/** Custom fields filter as `cf_<name>[__<lookup>]`, with the lookups of their type (the catalogue's CF_LOOKUPS). */
export const CUSTOM_FIELD_NOTE =
  'Custom fields filter as `cf_<name>[__<lookup>]`; lookups by type: ' +
  Object.entries(CF_LOOKUPS)
    .map(
      ([type, l]) =>
        `${type} ${Object.keys(l)
          .map((k) => `\`__${k}\``)
          .join(' ')}`,
    )
    .join('; ') +
  '. Without a lookup, one value only.';

/**
 * Every filter of a resource, `q` first. Custom field filters (`cf_<name>[__<lookup>]`) depend on
 * the custom fields defined at run time, so they are a note in the operation's description
 * (CUSTOM_FIELD_NOTE): a free-form parameter would make Swagger UI send placeholder keys.
 */
export function filterParameters(r: ResourceDef, ids: IdStyle = UUID_IDS): Parameter[] {
  return [...filtersOf(r).values()]
    .flatMap((s) => specParameters(s, r, ids))
    .sort((a, b) => (a.name === 'q' ? -1 : b.name === 'q' ? 1 : 0));
}
