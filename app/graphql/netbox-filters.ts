// NetBox 4's filter input on the `*_list` root fields: `filters: {name: {i_contains: "ams"}, OR: {...}}` and
// `pagination: {offset, limit}`, as GraphQL input types derived from the registry, translated to the same
// plans the REST filters make. (Filled in by the NetBox-filters work; until then the input is refused.)
import { GraphQLInputObjectType, GraphQLInt, type GraphQLFieldConfigArgumentMap } from 'graphql';
import type { Plan } from '../../engine/plan/nodes.js';
import type { PlanOptions } from '../../engine/plan/planner.js';
import type { ResourceDef } from '../../engine/schema/types.js';

/** Input types shared across resources (lookup inputs, `pagination`), built once per schema. */
export class NetboxFilterTypes {
  readonly pagination = new GraphQLInputObjectType({
    name: 'OffsetPaginationInput',
    fields: { offset: { type: GraphQLInt }, limit: { type: GraphQLInt } },
  });

  /** The `filters` and `pagination` arguments of a resource's `<name>_list` field. */
  listArgs(_r: ResourceDef, _opts: PlanOptions): GraphQLFieldConfigArgumentMap {
    return { pagination: { type: this.pagination } };
  }
}

/** `filters`' value (variables already coerced) as a plan, or the error naming what is wrong. */
export function netboxFiltersPlan(
  _r: ResourceDef,
  _filters: unknown,
  _opts: PlanOptions,
): { ok: true; plan: Plan } | { ok: false; message: string } {
  return { ok: false, message: 'filters: not supported yet' };
}
