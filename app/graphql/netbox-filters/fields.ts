// The fields of a resource's NetBox filter input, derived once per resource from its REST filters
// (engine/filters/filter-set.ts): a value filter with the NetBox lookups its REST lookups answer, a
// reference as NetBox 4.3 has it (`site: SiteFilter`, the referenced object's own filter, and
// `site_id: ID`, the REST `site_id`).
import { filtersOf, type FilterSpec } from '../../../engine/filters/filter-set.js';
import { field } from '../../../engine/schema/registry.js';
import type { ResourceDef } from '../../../engine/schema/types.js';
import { restFormsOf, type NbLookup, type RestForm } from './lookups.js';

/** The value type of a lookup input: which GraphQL input type (shared across resources) it takes. */
export type LookupValue = 'str' | 'int' | 'bigint' | 'datetime' | 'bool' | 'id';

export type NbField =
  /** A REST filter (`rest`) under NetBox lookups, each running as the REST form given. */
  | {
      readonly kind: 'lookups';
      readonly name: string;
      readonly rest: string;
      readonly value: LookupValue;
      readonly forms: ReadonlyMap<NbLookup, RestForm>;
    }
  /** `<fk>_id: ID`: the REST `<fk>_id` filter with the value given (`null`: no reference). */
  | { readonly kind: 'id'; readonly name: string; readonly rest: string }
  /** `<fk>: <Target>Filter`: objects whose reference satisfies the target's filter. */
  | { readonly kind: 'ref'; readonly name: string; readonly field: string; readonly target: string }
  /** `tags: TagFilter`: objects carrying a tag of the slugs or ids given (the REST `tag`, one value each). */
  | { readonly kind: 'tags'; readonly name: string; readonly rest: string; readonly target: string };

const INT32_MAX = 2147483647;

function valueOf(r: ResourceDef, spec: Extract<FilterSpec, { type: 'scalar' }>): LookupValue {
  switch (spec.parse) {
    case 'integer': {
      const max = field(r, spec.field)?.max;
      return max !== undefined && max > INT32_MAX ? 'bigint' : 'int';
    }
    case 'family':
      return 'int';
    case 'datetime':
      return 'datetime';
    case 'boolean':
      return 'bool';
    case 'uuid':
      return 'id';
    default:
      return 'str';
  }
}

function nbField(r: ResourceDef, spec: FilterSpec): NbField | null {
  switch (spec.type) {
    case 'scalar':
      return { kind: 'lookups', name: spec.name, rest: spec.name, value: valueOf(r, spec), forms: restFormsOf(spec) };
    case 'net':
      return { kind: 'lookups', name: spec.name, rest: spec.name, value: 'str', forms: restFormsOf(spec) };
    // A convenience filter named as the resource's own field (a prefix's `prefix`, an address's `address`):
    // NetBox's field filter, exact or in a list.
    case 'net_alias':
      return field(r, spec.name)
        ? { kind: 'lookups', name: spec.name, rest: spec.name, value: 'str', forms: restFormsOf(spec) }
        : null;
    case 'fk':
      return spec.byId
        ? { kind: 'id', name: spec.name, rest: spec.name }
        : { kind: 'ref', name: spec.name, field: spec.field, target: spec.target };
    case 'tag': {
      const f = r.fields.find((x) => x.kind === 'tags');
      return f ? { kind: 'tags', name: f.name, rest: spec.name, target: 'tag' } : null;
    }
    // Search, relation paths, generic references and the other network conveniences have no
    // NetBox filter field of this form.
    default:
      return null;
  }
}

const cache = new Map<string, ReadonlyMap<string, NbField>>();

/** Field name -> what it filters, in the REST filters' order; built once per resource. */
export function nbFieldsOf(r: ResourceDef): ReadonlyMap<string, NbField> {
  let m = cache.get(r.name);
  if (!m) {
    m = new Map(
      [...filtersOf(r).values()].flatMap((s) => {
        const f = nbField(r, s);
        return f ? [[f.name, f] as const] : [];
      }),
    );
    cache.set(r.name, m);
  }
  return m;
}
