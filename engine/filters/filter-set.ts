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
  | { readonly type: 'q'; readonly name: 'q'; readonly fields: readonly string[] };

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

function specsFor(r: ResourceDef, f: FieldDef): FilterSpec[] {
  if (f.filter === false || f.hidden) return [];
  const target = f.target ? findResource(f.target) : undefined;
  switch (f.kind) {
    case 'fk': {
      // A tree target matches descendants, except the tree's own parent link (direct children only).
      const spec = { type: 'fk', field: f.name, target: f.target!, tree: !!target?.tree && !(r.tree === f.name), nullable: !!f.nullable } as const;
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
  m = new Map(specs.map((s) => [s.name, s]));
  cache.set(r.name, m);
  return m;
}
