// The GraphQL input types of NetBox 4's filter input: one lookup input per value type, shared by every
// resource, and one `<Pascal>Filter` per resource with its fields (fields.ts) and AND/OR/NOT.
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
  type GraphQLScalarType,
} from 'graphql';
import { resource } from '../../../engine/schema/registry.js';
import type { ResourceDef } from '../../../engine/schema/types.js';
import { nbFieldsOf, type LookupValue, type NbField } from './fields.js';
import { NB_LOOKUPS, type NbLookup } from './lookups.js';

/** The order comparisons; text takes every other NetBox lookup. */
const RANGE: readonly NbLookup[] = ['gt', 'gte', 'lt', 'lte'];
const TEXT: readonly NbLookup[] = NB_LOOKUPS.filter((l) => !RANGE.includes(l));
const ORDERED: readonly NbLookup[] = ['exact', ...RANGE, 'in_list', 'is_null'];

/** Each lookup input: its name, the scalar its values are, and the lookups it offers. */
const LOOKUP_INPUTS: Readonly<
  Record<
    LookupValue,
    { readonly name: string; readonly scalar: GraphQLScalarType; readonly lookups: readonly NbLookup[] }
  >
> = {
  str: { name: 'StrFilterLookup', scalar: GraphQLString, lookups: TEXT },
  int: { name: 'IntFilterLookup', scalar: GraphQLInt, lookups: ORDERED },
  // Integers past GraphQL's 32-bit Int (an ASN): any number, which the REST filter checks is whole.
  bigint: { name: 'BigIntFilterLookup', scalar: GraphQLFloat, lookups: ORDERED },
  datetime: { name: 'DatetimeFilterLookup', scalar: GraphQLString, lookups: ORDERED },
  bool: { name: 'BoolFilterLookup', scalar: GraphQLBoolean, lookups: ['exact', 'is_null'] },
  id: { name: 'IDFilterLookup', scalar: GraphQLID, lookups: ['exact', 'in_list', 'is_null'] },
};

/** The lookups a value type's input offers (a REST filter may still refuse some: an error naming it). */
export const lookupsOfValue = (v: LookupValue): readonly NbLookup[] => LOOKUP_INPUTS[v].lookups;

const pascal = (name: string) => name.replace(/(^|_)([a-z0-9])/g, (_, _u, c: string) => c.toUpperCase());

/** The name of a resource's filter input (`device_type` -> `DeviceTypeFilter`). */
export const filterTypeName = (r: ResourceDef): string => `${pascal(r.name)}Filter`;

function lookupInput(v: LookupValue): GraphQLInputObjectType {
  const { name, scalar, lookups } = LOOKUP_INPUTS[v];
  const fields: GraphQLInputFieldConfigMap = {};
  for (const l of lookups)
    fields[l] = {
      type: l === 'is_null' ? GraphQLBoolean : l === 'in_list' ? new GraphQLList(new GraphQLNonNull(scalar)) : scalar,
    };
  return new GraphQLInputObjectType({ name, fields });
}

export class FilterInputs {
  private readonly lookups = new Map<LookupValue, GraphQLInputObjectType>();
  private readonly filters = new Map<string, GraphQLInputObjectType>();
  private readonly names = new Map<string, string>(); // type name -> what took it

  constructor() {
    for (const v of Object.keys(LOOKUP_INPUTS) as LookupValue[]) {
      this.claim(LOOKUP_INPUTS[v].name, `lookup ${v}`);
      this.lookups.set(v, lookupInput(v));
    }
  }

  /** A type name is taken once: two resources whose names make one type name stop the schema's build. */
  private claim(name: string, by: string): void {
    const had = this.names.get(name);
    if (had !== undefined) throw new Error(`GraphQL filter input ${name}: both ${had} and ${by} would be named so`);
    this.names.set(name, by);
  }

  /** A resource's `<Pascal>Filter`, made once; references to other resources' filters resolve lazily. */
  filterOf(r: ResourceDef): GraphQLInputObjectType {
    let t = this.filters.get(r.name);
    if (t) return t;
    const name = filterTypeName(r);
    this.claim(name, `resource ${r.name}`);
    t = new GraphQLInputObjectType({
      name,
      description: `NetBox 4 filter of ${r.plural}: fields AND together, OR ors its object with the rest, NOT negates`,
      fields: () => {
        const out: GraphQLInputFieldConfigMap = {};
        for (const f of nbFieldsOf(r).values()) out[f.name] = { type: this.typeOf(f) };
        out.AND = { type: t! };
        out.OR = { type: t! };
        out.NOT = { type: t! };
        return out;
      },
    });
    this.filters.set(r.name, t);
    return t;
  }

  private typeOf(f: NbField): GraphQLInputType {
    switch (f.kind) {
      case 'lookups':
        return this.lookups.get(f.value)!;
      case 'id':
        return GraphQLID;
      case 'ref':
      case 'tags':
        return this.filterOf(resource(f.target));
    }
  }
}
