// Filters of a resource, derived once from the schema registry and the lookup catalogue.
import { findResource, netPartField } from '../schema/registry.js';
import type { Choice, FieldDef, ResourceDef } from '../schema/types.js';
import type { ValueType } from '../plan/nodes.js';
import { NEGATION_ONLY, NUMERIC_LOOKUPS, STRING_LOOKUPS, type LookupTable, type NetLookup } from './lookups.js';

/** How a filter value is parsed before it reaches the plan. */
export type ValueParse = 'string' | 'integer' | 'datetime' | 'boolean' | 'uuid' | 'choice' | 'mac' | 'family';

export type FilterSpec =
  | { readonly type: 'scalar'; readonly name: string; readonly field: string; readonly parse: ValueParse; readonly valueType: ValueType; readonly lookups: LookupTable; readonly choices?: readonly Choice[] }
  | { readonly type: 'fk'; readonly name: string; readonly field: string; readonly target: string; readonly tree: boolean; readonly nullable: boolean }
  | { readonly type: 'tag'; readonly name: 'tag' }
  /** `field`: the network field by its role (named as its role); `family`: the derived family field. */
  | { readonly type: 'net'; readonly name: string; readonly field: 'network' | 'host'; readonly family: string }
  /** Nautobot 1.x convenience filters: a fixed network lookup under its own name. */
  | { readonly type: 'net_alias'; readonly name: string; readonly field: 'network' | 'host'; readonly family: string; readonly lookup: NetLookup | 'contains_any' }
  | { readonly type: 'q'; readonly name: 'q'; readonly fields: readonly string[] }
  /** A foreign-key filter of a related resource, reached through foreign keys (`via`, nearest
   * first): `region` of a device is its site's region. */
  | { readonly type: 'path'; readonly name: string; readonly via: readonly Hop[]; readonly end: FkSpec };

export interface Hop { readonly field: string; readonly target: string }
type FkSpec = Extract<FilterSpec, { type: 'fk' }>;

const VALUE_OF_KIND: Partial<Record<FieldDef['kind'], { parse: ValueParse; valueType: ValueType; lookups: LookupTable }>> = {
  uuid: { parse: 'uuid', valueType: 'string', lookups: NEGATION_ONLY },
  string: { parse: 'string', valueType: 'string', lookups: STRING_LOOKUPS },
  slug: { parse: 'string', valueType: 'string', lookups: STRING_LOOKUPS },
  mac: { parse: 'mac', valueType: 'string', lookups: STRING_LOOKUPS },
  choice: { parse: 'choice', valueType: 'string', lookups: STRING_LOOKUPS },
  integer: { parse: 'integer', valueType: 'number', lookups: NUMERIC_LOOKUPS },
  datetime: { parse: 'datetime', valueType: 'datetime', lookups: NUMERIC_LOOKUPS },
  boolean: { parse: 'boolean', valueType: 'boolean', lookups: {} },
};

/** A foreign key's filter. A tree target matches descendants, except through the tree's own
 * parent link (direct children only). */
function fkSpec(r: ResourceDef, f: FieldDef): FkSpec {
  const target = f.target ? findResource(f.target) : undefined;
  return { type: 'fk', name: f.name, field: f.name, target: f.target!, tree: !!target?.tree && !(r.tree === f.name), nullable: !!f.nullable };
}

/** Most foreign keys a relation filter follows before its own (an address's region: interface,
 * device, site). */
const MAX_HOPS = 3;

/**
 * The foreign-key filters of related resources, as Nautobot offers them (`devices?region=eu`,
 * `interfaces?site=…`, `ip-addresses?device=…`): breadth first through the resource's foreign
 * keys, each name taken by the nearest resource that has it, never one the resource has itself,
 * never along a tree's parent link.
 */
function relationSpecs(r: ResourceDef, taken: Set<string>): FilterSpec[] {
  const out: FilterSpec[] = [];
  let frontier: { def: ResourceDef; via: Hop[] }[] = [{ def: r, via: [] }];
  for (let depth = 0; depth <= MAX_HOPS && frontier.length; depth++) {
    const next: typeof frontier = [];
    for (const { def, via } of frontier) {
      for (const f of def.fields) {
        if (f.kind !== 'fk' || f.filter === false || f.hidden || def.tree === f.name) continue;
        const target = findResource(f.target!);
        if (via.length && !taken.has(f.name)) {
          const end = fkSpec(def, f);
          for (const name of [f.name, `${f.name}_id`]) { out.push({ type: 'path', name, via, end }); taken.add(name); }
        }
        if (target && via.length < MAX_HOPS) next.push({ def: target, via: [...via, { field: f.name, target: f.target! }] });
      }
    }
    frontier = next;
  }
  return out;
}

function specsFor(r: ResourceDef, f: FieldDef): FilterSpec[] {
  if (f.filter === false || f.hidden) return [];
  switch (f.kind) {
    case 'fk': {
      const spec = fkSpec(r, f);
      return [{ ...spec, name: f.name }, { ...spec, name: `${f.name}_id` }];
    }
    case 'tags': return [{ type: 'tag', name: 'tag' }];
    case 'ip': return f.netRole ? [{ type: 'net', name: f.name, field: f.netRole, family: netPartField(r, 'family')! }] : [];
    default: {
      const v = VALUE_OF_KIND[f.kind];
      return v ? [{ type: 'scalar', name: f.name, field: f.name, ...v, choices: f.choices }] : [];
    }
  }
}

/** Convenience filters of IPAM resources, named as in Nautobot 1.x. */
function conveniences(r: ResourceDef): FilterSpec[] {
  const role = r.fields.find((f) => f.netRole)?.netRole;
  const length = netPartField(r, 'length'), family = netPartField(r, 'family');
  if (!role || !length || !family) return [];
  const common: FilterSpec[] = [
    { type: 'scalar', name: 'mask_length', field: length, parse: 'integer', valueType: 'number', lookups: NUMERIC_LOOKUPS },
    { type: 'scalar', name: 'family', field: family, parse: 'family', valueType: 'number', lookups: {} },
  ];
  if (role === 'network') return [...common,
    { type: 'net_alias', name: 'prefix', field: 'network', family, lookup: 'net_equals' },
    { type: 'net_alias', name: 'within', field: 'network', family, lookup: 'net_contained' },
    { type: 'net_alias', name: 'within_include', field: 'network', family, lookup: 'net_contained_or_equal' },
    { type: 'net_alias', name: 'contains', field: 'network', family, lookup: 'contains_any' },
  ];
  return [...common,
    { type: 'net_alias', name: 'address', field: 'host', family, lookup: 'base' },
    { type: 'net_alias', name: 'parent', field: 'host', family, lookup: 'net_host_contained' },
  ];
}

const cache = new Map<string, ReadonlyMap<string, FilterSpec>>();

/** Filter name -> spec; built once per resource. Custom fields (`cf_`) are added by the planner. */
export function filtersOf(r: ResourceDef): ReadonlyMap<string, FilterSpec> {
  let m = cache.get(r.name);
  if (m) return m;
  const specs: FilterSpec[] = [...r.fields.flatMap((f) => specsFor(r, f)), ...conveniences(r)];
  const search = r.fields.filter((f) => f.search).map((f) => f.name);
  if (search.length) specs.push({ type: 'q', name: 'q', fields: search });
  if (r.inventory !== false) specs.push(...relationSpecs(r, new Set(specs.map((s) => s.name))));
  m = new Map(specs.map((s) => [s.name, s]));
  cache.set(r.name, m);
  return m;
}
