// Query parameters of a list endpoint: paging and ordering, then every filter derived from
// filtersOf(resource) crossed with its lookups (`field`, `field__lookup`), and the custom field pattern.
import { filtersOf, type FilterSpec } from '../../engine/filters/filter-set.js';
import { ADDRESS_TEXT_LOOKUPS, NET_LOOKUPS, NEGATION_ONLY, type LookupTable } from '../../engine/filters/lookups.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import type { JsonSchema, Parameter } from './types.js';

const ORDERABLE_KINDS = new Set(['uuid', 'string', 'slug', 'integer', 'boolean', 'choice', 'mac', 'ip', 'prefix', 'address', 'datetime']);

/** limit / offset of every paginated list. */
export function limitOffsetParameters(maxPageSize: number): Parameter[] {
  return [
    { name: 'limit', in: 'query', description: `Page size (default 50, at most ${maxPageSize}; 0 means the maximum).`, schema: { type: 'integer', minimum: 0 } },
    { name: 'offset', in: 'query', description: 'Index of the first result.', schema: { type: 'integer', minimum: 0 } },
  ];
}

/** `ordering` over the scalar fields of a resource (server/routes/list-params.ts). */
export function orderingParameter(r: ResourceDef): Parameter {
  const orderable = r.fields.filter((f) => !f.hidden && ORDERABLE_KINDS.has(f.kind)).map((f) => f.name);
  return { name: 'ordering', in: 'query', description: `Comma list of fields, \`-\` for descending; ties broken by id. Fields: ${orderable.map((n) => `\`${n}\``).join(', ')}.`, schema: { type: 'string' } };
}

export const BRIEF_PARAMETER: Parameter = { name: 'brief', in: 'query', description: 'true: only id, url, display and name/slug of each object.', schema: { type: 'boolean' } };
export const EXPLAIN_PARAMETER: Parameter = { name: 'explain', in: 'query', description: 'true: return the query plan and the indexes used instead of results.', schema: { type: 'boolean' } };

const many = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

function param(name: string, description: string, items: JsonSchema): Parameter {
  return { name, in: 'query', description, schema: many(items), style: 'form', explode: true };
}

function itemsOf(spec: Extract<FilterSpec, { type: 'scalar' }>, lookup: string | null): JsonSchema {
  const textual = lookup !== null && lookup !== 'n';
  switch (spec.parse) {
    case 'integer': return { type: 'integer' };
    case 'family': return { type: 'integer', enum: [4, 6] };
    case 'boolean': return { type: 'boolean' };
    case 'uuid': return { type: 'string', format: 'uuid' };
    case 'datetime': return { type: 'string', description: 'a date or a date-time', examples: ['2024-01-31', '2024-01-31T12:00:00Z'] };
    case 'choice': return textual || !spec.choices ? { type: 'string' } : { type: 'string', enum: spec.choices.map((c) => c.value) };
    default: return { type: 'string' };
  }
}

function withLookups(name: string, what: string, lookups: LookupTable, items: (lookup: string | null) => JsonSchema): Parameter[] {
  return [
    param(name, `${what}: equals (repeat to OR several values).`, items(null)),
    ...Object.entries(lookups).map(([lk, l]) => param(`${name}__${lk}`, `${what}: ${l.doc}.`, items(lk))),
  ];
}

const NET_DOC: Record<string, string> = {
  exact: 'address equals', iexact: 'address equals', net_equals: 'same network and length',
  net_contained: 'strictly inside the given network', net_contained_or_equal: 'inside or equal to the given network',
  net_contains: 'strictly contains the given network', net_contains_or_equals: 'contains or equals the given network',
  net_host: 'contains (or is) the given IP', net_host_contained: 'address falls inside the given network',
  net_in: 'address inside any of the given networks', family: '4 or 6',
};

function specParameters(spec: FilterSpec): Parameter[] {
  switch (spec.type) {
    case 'scalar': return withLookups(spec.name, `\`${spec.field}\``, spec.lookups, (lk) => itemsOf(spec, lk));
    case 'fk': return withLookups(spec.name, `\`${spec.field}\` by id or ${spec.target} slug/name, or \`null\`${spec.tree ? ' (matches descendants too)' : ''}`, NEGATION_ONLY, () => ({ type: 'string' }));
    case 'tag': return withLookups('tag', 'carries the tag (slug); several values: all of them', NEGATION_ONLY, () => ({ type: 'string' }));
    case 'net': return [
      param(spec.name, `\`${spec.name}\`: a CIDR or a bare address (see docs/filtering.md).`, { type: 'string' }),
      ...NET_LOOKUPS.map((lk) => param(`${spec.name}__${lk}`, `\`${spec.name}\`: ${NET_DOC[lk]}.`, { type: 'string' })),
      ...Object.entries(ADDRESS_TEXT_LOOKUPS).map(([lk, l]) => param(`${spec.name}__${lk}`, `${l.doc}.`, { type: 'string' })),
    ];
    case 'net_alias': return [param(spec.name, `Nautobot 1.x convenience filter on \`${spec.field}\` (${spec.lookup === 'contains_any' ? 'a CIDR: contains or equals; a bare IP: contains the host' : spec.lookup === 'base' ? 'host and length, or host alone' : spec.lookup}).`, { type: 'string' })];
    case 'q': return [{ name: 'q', in: 'query', description: `Case-insensitive search over ${spec.fields.map((f) => `\`${f}\``).join(', ')}.`, schema: { type: 'string' } }];
    case 'path': return withLookups(spec.name, `\`${[...spec.via.map((h) => h.field), spec.end.field].join('.')}\` by id or ${spec.end.target} slug/name, or \`null\`${spec.end.tree ? ' (matches descendants too)' : ''}`, NEGATION_ONLY, () => ({ type: 'string' }));
  }
}

export const CUSTOM_FIELD_NOTE =
  'Custom fields filter as `cf_<name>[__<lookup>]`: text, url and select fields take the string lookups, ' +
  'integer and date the numeric ones, multi-select `__n`; boolean and json none. Without a lookup, one value only.';

/**
 * Every filter of a resource, `q` first. Custom field filters (`cf_<name>[__<lookup>]`) depend on
 * the custom fields defined at run time, so they are a note in the operation's description
 * (CUSTOM_FIELD_NOTE): a free-form parameter would make Swagger UI send placeholder keys.
 */
export function filterParameters(r: ResourceDef): Parameter[] {
  return [...filtersOf(r).values()].flatMap(specParameters).sort((a, b) => (a.name === 'q' ? -1 : b.name === 'q' ? 1 : 0));
}
