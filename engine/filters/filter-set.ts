// Filters of a resource, derived once from the schema registry and the lookup catalogue.
import { findResource, netPartField, RESOURCES, servedNames } from '../schema/registry.js';
import type { Choice, CustomFieldDef, FieldDef, ResourceDef } from '../schema/types.js';
import type { ValueType } from './ops.js';
import { genericRefs } from '../schema/generic-refs.js';
import {
  CF_LOOKUPS,
  EXACT,
  NEGATION_ONLY,
  NET_BASE,
  NET_CONTAINS_ANY,
  NETWORK_LOOKUPS,
  ADDRESS_TEXT_LOOKUPS,
  NULLABLE_LOOKUPS,
  NUMERIC_LOOKUPS,
  SEARCH,
  STRING_LOOKUPS,
  NET_CHILD_OF,
  type LookupSpec,
  type LookupTable,
} from './lookups.js';

/** How a filter value is parsed before it reaches the plan. */
export type ValueParse = 'string' | 'integer' | 'datetime' | 'boolean' | 'uuid' | 'choice' | 'mac' | 'family';

/** Every filter carries its lookups: `base` for its bare name, `lookups` by suffix (catalogue rows). */
interface WithLookups {
  readonly base: LookupSpec;
  readonly lookups: LookupTable;
}

export type FilterSpec = WithLookups &
  (
    | {
        readonly type: 'scalar';
        readonly name: string;
        readonly field: string;
        readonly parse: ValueParse;
        readonly valueType: ValueType;
        readonly choices?: readonly Choice[];
      }
    /** `byId`: the `<fk>_id` form, which takes ids (and `null`) only. */
    | {
        readonly type: 'fk';
        readonly name: string;
        readonly field: string;
        readonly target: string;
        readonly tree: boolean;
        readonly nullable: boolean;
        readonly byId: boolean;
      }
    | { readonly type: 'tag'; readonly name: 'tag' }
    /** `field`: the network field by its role (named as its role); `family`: the derived family field. */
    | { readonly type: 'net'; readonly name: string; readonly field: 'network' | 'host'; readonly family: string }
    /** Nautobot 1.x convenience filters: a fixed network lookup (the base row) under its own name. */
    | { readonly type: 'net_alias'; readonly name: string; readonly field: 'network' | 'host'; readonly family: string }
    | { readonly type: 'q'; readonly name: 'q'; readonly fields: readonly string[] }
    /** A foreign-key filter of a related resource, reached through foreign keys (`via`, nearest
     * first): `region` of a device is its site's region. */
    | { readonly type: 'path'; readonly name: string; readonly via: readonly Hop[]; readonly end: FkSpec }
    /** A generic reference's filter (NetBox's `assigned_object_type`, `assigned_object_id`): by the content
     * type of the fk set (`types[i]` is that of `ends[i]`), or by the id any of the fks holds. */
    | {
        readonly type: 'generic';
        readonly name: string;
        readonly part: 'type' | 'id';
        readonly ends: readonly FkSpec[];
        readonly types: readonly string[];
      }
  );

/** A custom field's filter, `cf_<name>`: made per definition in force (cfFilterSpec). */
export type CfFilterSpec = WithLookups & { readonly type: 'cf'; readonly name: string; readonly def: CustomFieldDef };

export interface Hop {
  readonly field: string;
  readonly target: string;
}
type FkSpec = Extract<FilterSpec, { type: 'fk' }>;

/** The lookups of a field: its kind's, and `__isnull` when it may be null. */
const withNull = (lookups: LookupTable, f: FieldDef): LookupTable =>
  f.nullable ? { ...lookups, ...NULLABLE_LOOKUPS } : lookups;

const VALUE_OF_KIND: Partial<
  Record<FieldDef['kind'], { parse: ValueParse; valueType: ValueType; lookups: LookupTable }>
> = {
  uuid: { parse: 'uuid', valueType: 'string', lookups: NEGATION_ONLY },
  string: { parse: 'string', valueType: 'string', lookups: STRING_LOOKUPS },
  slug: { parse: 'string', valueType: 'string', lookups: STRING_LOOKUPS },
  mac: { parse: 'mac', valueType: 'string', lookups: STRING_LOOKUPS },
  choice: { parse: 'choice', valueType: 'string', lookups: STRING_LOOKUPS },
  integer: { parse: 'integer', valueType: 'number', lookups: NUMERIC_LOOKUPS },
  datetime: { parse: 'datetime', valueType: 'datetime', lookups: NUMERIC_LOOKUPS },
  boolean: { parse: 'boolean', valueType: 'boolean', lookups: {} },
};

/** A foreign key's filter (`byId`: its `<fk>_id` form). A tree target matches descendants, except
 * through the tree's own parent link (direct children only). */
function fkSpec(r: ResourceDef, f: FieldDef, byId: boolean, name = f.name): FkSpec {
  const target = f.target ? findResource(f.target) : undefined;
  return {
    type: 'fk',
    name: byId ? `${name}_id` : name,
    field: f.name,
    target: f.target!,
    tree: !!target?.tree && !(r.tree === f.name),
    nullable: !!f.nullable,
    byId,
    base: EXACT,
    lookups: withNull(NEGATION_ONLY, f),
  };
}

/** Most foreign keys a relation filter follows before its own (an address's region: interface,
 * device, site). */
const MAX_HOPS = 3;

/**
 * The foreign-key filters of related resources, as Nautobot offers them (`devices?region=eu`,
 * `interfaces?site=…`, `ip-addresses?device=…`): breadth first through the resource's foreign
 * keys, each name taken by the nearest resource that has it, never one the resource has itself,
 * never along a tree's parent link nor a deferred reference (a cycle). A field's `relationName`
 * names its filter there (a site's `group` is `site_group` on devices).
 */
function relationSpecs(r: ResourceDef, taken: Set<string>): FilterSpec[] {
  const out: FilterSpec[] = [];
  let frontier: { def: ResourceDef; via: Hop[] }[] = [{ def: r, via: [] }];
  for (let depth = 0; depth <= MAX_HOPS && frontier.length; depth++) {
    const next: typeof frontier = [];
    for (const { def, via } of frontier) {
      for (const f of def.fields) {
        if (f.kind !== 'fk' || f.filter === false || f.hidden || f.deferred || def.tree === f.name) continue;
        const target = findResource(f.target!);
        const name = f.relationName ?? f.name;
        if (via.length && !taken.has(name)) {
          for (const end of [fkSpec(def, f, false, name), fkSpec(def, f, true, name)]) {
            out.push({ type: 'path', name: end.name, via, end, base: EXACT, lookups: NEGATION_ONLY });
            taken.add(end.name);
          }
        }
        if (target && via.length < MAX_HOPS)
          next.push({ def: target, via: [...via, { field: f.name, target: f.target! }] });
      }
    }
    frontier = next;
  }
  return out;
}

function specsFor(r: ResourceDef, f: FieldDef): FilterSpec[] {
  if (f.filter === false || f.hidden) return [];
  switch (f.kind) {
    case 'fk':
      // An alias filters as the field does, under its own names (`device_role`, `device_role_id`).
      return servedNames(f).flatMap((n) => [fkSpec(r, f, false, n), fkSpec(r, f, true, n)]);
    case 'tags':
      return [{ type: 'tag', name: 'tag', base: EXACT, lookups: NEGATION_ONLY }];
    case 'ip':
      return f.netRole
        ? [
            {
              type: 'net',
              name: f.name,
              field: f.netRole,
              family: netPartField(r, 'family')!,
              base: NET_BASE,
              lookups: { ...NETWORK_LOOKUPS, ...ADDRESS_TEXT_LOOKUPS },
            },
          ]
        : [];
    default: {
      const v = VALUE_OF_KIND[f.kind];
      return v
        ? [
            {
              type: 'scalar',
              name: f.name,
              field: f.name,
              parse: v.parse,
              valueType: v.valueType,
              choices: f.choices,
              base: EXACT,
              lookups: withNull(v.lookups, f),
            },
          ]
        : [];
    }
  }
}

/**
 * The filters of the generic references (engine/schema/generic-refs.ts): `<name>_type` and `<name>_id` as
 * NetBox has them, and `<name>` as `<name>_id` (Ansible's netbox_ip_address sends it beside `_id`; NetBox
 * ignores it as no filter of its, which strict filtering here would refuse).
 */
function genericSpecs(r: ResourceDef): FilterSpec[] {
  return genericRefs(r).flatMap((g) => {
    const ends = g.fields.map((f) => fkSpec(r, f, true));
    const types = g.fields.map((f) => g.typeOf.get(f.name)!);
    const spec = (name: string, part: 'type' | 'id'): FilterSpec => ({
      type: 'generic',
      name,
      part,
      ends,
      types,
      base: EXACT,
      lookups: NEGATION_ONLY,
    });
    return [spec(g.typeKey, 'type'), spec(g.idKey, 'id'), spec(g.name, 'id')];
  });
}

/** Convenience filters of IPAM resources, named as in Nautobot 1.x. */
function conveniences(r: ResourceDef): FilterSpec[] {
  const role = r.fields.find((f) => f.netRole)?.netRole;
  const length = netPartField(r, 'length'),
    family = netPartField(r, 'family');
  if (!role || !length || !family) return [];
  const alias = (name: string, base: LookupSpec): FilterSpec => ({
    type: 'net_alias',
    name,
    field: role,
    family,
    base,
    lookups: {},
  });
  const common: FilterSpec[] = [
    {
      type: 'scalar',
      name: 'mask_length',
      field: length,
      parse: 'integer',
      valueType: 'number',
      base: EXACT,
      lookups: NUMERIC_LOOKUPS,
    },
    { type: 'scalar', name: 'family', field: family, parse: 'family', valueType: 'number', base: EXACT, lookups: {} },
  ];
  if (role === 'network')
    return [
      ...common,
      alias('prefix', NETWORK_LOOKUPS.net_equals),
      alias('within', NETWORK_LOOKUPS.net_contained),
      alias('within_include', NETWORK_LOOKUPS.net_contained_or_equal),
      alias('contains', NET_CONTAINS_ANY),
      alias('parent', NET_CHILD_OF),
    ];
  return [...common, alias('address', NET_BASE), alias('parent', NETWORK_LOOKUPS.net_host_contained)];
}

/** The rows each kind of filter can plan (engine/plan/planner.ts), checked when its spec is made:
 * a table that gives a filter a lookup it cannot plan stops the start, naming filter and lookup. */
const PLANNABLE: Readonly<Record<(FilterSpec | CfFilterSpec)['type'], readonly LookupSpec['does'][]>> = {
  scalar: ['cmp', 'isnull', 'empty'],
  fk: ['cmp', 'isnull'],
  tag: ['cmp'],
  net: ['net', 'family', 'cmp'],
  net_alias: ['net'],
  q: ['cmp'],
  path: ['cmp'],
  generic: ['cmp'],
  cf: ['cmp', 'isnull', 'empty'],
};

function checked<S extends WithLookups & { readonly type: keyof typeof PLANNABLE; readonly name: string }>(
  owner: string,
  spec: S,
): S {
  for (const [name, row] of [['(none)', spec.base] as const, ...Object.entries(spec.lookups)])
    if (!PLANNABLE[spec.type].includes(row.does))
      throw new Error(
        `filters: ${owner} filter ${spec.name}: lookup ${name} (${row.does}) does not apply to a ${spec.type} filter`,
      );
  return spec;
}

const cache = new Map<string, ReadonlyMap<string, FilterSpec>>();

/** Filter name -> spec; built once per resource. Custom fields (`cf_`) are added by the planner. */
export function filtersOf(r: ResourceDef): ReadonlyMap<string, FilterSpec> {
  let m = cache.get(r.name);
  if (m) return m;
  const specs: FilterSpec[] = [...r.fields.flatMap((f) => specsFor(r, f)), ...conveniences(r), ...genericSpecs(r)];
  const search = r.fields.filter((f) => f.search).map((f) => f.name);
  if (search.length) specs.push({ type: 'q', name: 'q', fields: search, base: SEARCH, lookups: {} });
  if (r.inventory !== false) specs.push(...relationSpecs(r, new Set(specs.map((s) => s.name))));
  m = new Map(specs.map((s) => [s.name, checked(r.name, s)]));
  cache.set(r.name, m);
  return m;
}

const cfCache = new WeakMap<CustomFieldDef, CfFilterSpec>();

/** The filter of a custom field: the lookups of its type (CF_LOOKUPS). */
export function cfFilterSpec(def: CustomFieldDef): CfFilterSpec {
  let spec = cfCache.get(def);
  if (!spec) {
    spec = checked('custom field', { type: 'cf', name: def.name, def, base: EXACT, lookups: CF_LOOKUPS[def.type] });
    cfCache.set(def, spec);
  }
  return spec;
}

// Every resource's filters and every custom field type's lookups are checked at load, not at a
// first request.
for (const r of RESOURCES) filtersOf(r);
for (const [type, lookups] of Object.entries(CF_LOOKUPS))
  checked('custom field', { type: 'cf', name: `cf_<${type}>`, base: EXACT, lookups });
