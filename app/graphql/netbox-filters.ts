// NetBox 4's filter input on the `*_list` root fields: `filters: {name: {i_contains: "ams"}, OR: {...}}` and
// `pagination: {offset, limit}`, as GraphQL input types derived from the registry (netbox-filters/types.ts),
// translated to the plans the same REST filters make (netbox-filters/translate.ts). docs/graphql-filters.md.
import { GraphQLInputObjectType, GraphQLInt, type GraphQLFieldConfigArgumentMap } from 'graphql';
import type { Plan } from '../../engine/plan/nodes.js';
import type { PlanOptions } from '../../engine/plan/planner.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import type { GraphqlViewer } from './contract.js';
import { FilterInputs } from './netbox-filters/types.js';
import { translateFilters } from './netbox-filters/translate.js';

export { filterTypeName } from './netbox-filters/types.js';
export { REST_FORMS, NB_LOOKUPS, escapeRegex, type NbLookup } from './netbox-filters/lookups.js';

/** Input types shared across resources (lookup inputs, `pagination`), built once per schema. */
export class NetboxFilterTypes {
  readonly pagination = new GraphQLInputObjectType({
    name: 'OffsetPaginationInput',
    fields: { offset: { type: GraphQLInt }, limit: { type: GraphQLInt } },
  });
  private readonly inputs = new FilterInputs();

  /** The `filters` and `pagination` arguments of a resource's `<name>_list` field. */
  listArgs(r: ResourceDef, _opts: PlanOptions): GraphQLFieldConfigArgumentMap {
    return { filters: { type: this.inputs.filterOf(r) }, pagination: { type: this.pagination } };
  }
}

/**
 * `filters`' value (variables already coerced) as a plan, or the error naming what is wrong. `viewer`: a
 * nested filter on a type it may not view (`site: {...}` on devices) is an error naming the path.
 */
export function netboxFiltersPlan(
  r: ResourceDef,
  filters: unknown,
  opts: PlanOptions,
  viewer?: GraphqlViewer,
): { ok: true; plan: Plan } | { ok: false; message: string } {
  return translateFilters(r, filters, opts, viewer);
}
