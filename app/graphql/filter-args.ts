// A list field's filter arguments: exactly the REST list's filters (engine/filters/filter-set.ts), every
// name and `name__lookup`, plus `cf_<name>` ones per custom field, each a `[FilterValue]` (one value or a
// list: the repeated parameter). Their values become the query pairs REST would get, planned by the same
// planner (strict: an unknown name is already refused by validation, since every argument is declared).
import { parentFilterPairs } from '../prefix-parent-filter.js';
import { GraphQLError, GraphQLInt, GraphQLList, type GraphQLFieldConfigArgumentMap } from 'graphql';
import { cfFilterSpec, filtersOf, type CfFilterSpec, type FilterSpec } from '../../engine/filters/filter-set.js';
import type { Plan } from '../../engine/plan/nodes.js';
import type { CustomFieldDef, ResourceDef } from '../../engine/schema/types.js';
import { FilterValueScalar } from './scalars.js';
import type { RequestScope } from './request-scope.js';

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const legal = (name: string) => GRAPHQL_NAME.test(name) && !name.startsWith('__');

/** Arguments of list fields that are not filters. */
export const PAGING_ARGS: ReadonlySet<string> = new Set(['limit', 'offset', 'filters', 'pagination']);

const namesOf = (spec: FilterSpec | CfFilterSpec, prefix = '') => [
  `${prefix}${spec.name}`,
  ...Object.keys(spec.lookups).map((l) => `${prefix}${spec.name}__${l}`),
];

const staticArgs = new Map<string, GraphQLFieldConfigArgumentMap>();
const filterList = { type: new GraphQLList(FilterValueScalar) };

/** The filter arguments of `r`'s lists (with `limit` and `offset`), custom fields `defs` included. */
export function filterArgs(r: ResourceDef, defs: readonly CustomFieldDef[]): GraphQLFieldConfigArgumentMap {
  let base = staticArgs.get(r.name);
  if (!base) {
    base = { limit: { type: GraphQLInt }, offset: { type: GraphQLInt } };
    for (const spec of filtersOf(r).values())
      for (const n of namesOf(spec)) if (legal(n) && !PAGING_ARGS.has(n)) base[n] = filterList;
    staticArgs.set(r.name, base);
  }
  const args = { ...base };
  for (const d of defs)
    if (d.filter_logic !== 'disabled')
      for (const n of namesOf(cfFilterSpec(d), 'cf_')) if (legal(n)) args[n] = filterList;
  return args;
}

/** The query pairs REST would get for these arguments (a list: the repeated parameter; null: absent). */
export function argPairs(args: Readonly<Record<string, unknown>>): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [k, v] of Object.entries(args)) {
    if (PAGING_ARGS.has(k) || v === null || v === undefined) continue;
    for (const x of Array.isArray(v) ? v : [v]) pairs.push([k, x === null ? 'null' : String(x)]);
  }
  return pairs;
}

/** The planner's errors as one GraphQL error naming each argument. */
export function argumentError(errors: Readonly<Record<string, readonly string[]>>): GraphQLError {
  const parts = Object.entries(errors).map(([k, msgs]) => `${k}: ${msgs.join(' ')}`);
  return new GraphQLError(`Invalid filter argument${parts.length > 1 ? 's' : ''}: ${parts.join('; ')}`, {
    extensions: { code: 'BAD_FILTER', arguments: errors },
  });
}

/** The plan of a list field's filter arguments, as the REST list with the same parameters plans it. */
export async function planArgs(
  scope: RequestScope,
  r: ResourceDef,
  args: Readonly<Record<string, unknown>>,
): Promise<Plan> {
  const got = await parentFilterPairs(scope.storage, r, argPairs(args));
  if ('errors' in got) throw argumentError(got.errors);
  const pairs = got.pairs;
  const planned = scope.plans.get(r, pairs, {
    strict: true,
    customFields: scope.customFields(r),
    ids: scope.storage.ids,
  });
  if (Object.keys(planned.errors).length) throw argumentError(planned.errors);
  return planned.plan;
}
