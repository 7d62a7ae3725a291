// The root fields of both dialects, in one schema: Nautobot's lists (`sites`), NetBox 3.7's (`site_list`,
// which also take NetBox 4's `filters` and `pagination`), and one object by id (`site(id:)`). A type the
// viewer may not view is an error here.
import {
  GraphQLError,
  GraphQLID,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  type GraphQLResolveInfo,
} from 'graphql';
import { and } from '../../engine/plan/nodes.js';
import { defaultOrdering } from '../../engine/plan/page.js';
import { idStyleOf } from '../../engine/schema/id-style.js';
import type { CustomFieldDef, ResourceDef } from '../../engine/schema/types.js';
import { filterArgs, planArgs } from './filter-args.js';
import type { RootNames } from './names.js';
import { netboxFiltersPlan, type NetboxFilterTypes } from './netbox-filters.js';
import type { ObjectTypes } from './object-types.js';
import { pageArgs } from './paging.js';
import { readAhead } from './read-ahead.js';
import { AHEAD_READS } from './resolvers.js';
import type { RequestScope } from './request-scope.js';

type Args = Readonly<Record<string, unknown>>;
type Root = GraphQLFieldConfig<unknown, RequestScope, Args>;

function mayView(scope: RequestScope, r: ResourceDef): void {
  if (!scope.viewer.canView(r))
    throw new GraphQLError(`You do not have permission to view ${r.plural.replace(/-/g, ' ')}.`, {
      extensions: { code: 'FORBIDDEN', resource: r.name },
    });
}

async function list(scope: RequestScope, r: ResourceDef, args: Args, netbox: boolean, info: GraphQLResolveInfo) {
  mayView(scope, r);
  let plan = await planArgs(scope, r, args);
  if (netbox && args.filters !== undefined && args.filters !== null) {
    const opts = { strict: true, customFields: scope.customFields(r), ids: scope.storage.ids };
    const nb = netboxFiltersPlan(r, args.filters, opts, scope.seen);
    if (!nb.ok) throw new GraphQLError(nb.message, { extensions: { code: 'BAD_FILTER', argument: 'filters' } });
    plan = and([plan, nb.plan]);
  }
  const { limit, offset } = pageArgs(scope, args, netbox ? (args.pagination as Args | null) : null);
  const rows = await scope.find(r, plan, { limit, offset, ordering: defaultOrdering(r) });
  await readAhead(scope, info, rows, AHEAD_READS);
  return rows;
}

async function one(scope: RequestScope, r: ResourceDef, id: string) {
  mayView(scope, r);
  const known = idStyleOf(r, scope.storage.ids).parse(id);
  // As REST's detail answers 404 and NetBox's GraphQL an error: a text that is no id of this store is named.
  if (known === null)
    throw new GraphQLError(`id: "${id}" is not a valid ${r.label} id.`, {
      extensions: { code: 'BAD_ID', argument: 'id' },
    });
  return (await scope.getMany(r, [known]))[0] ?? null;
}

export function rootFields(
  resources: Iterable<ResourceDef>,
  names: ReadonlyMap<string, RootNames>,
  types: ObjectTypes,
  netboxTypes: NetboxFilterTypes,
  customFields: (r: ResourceDef) => readonly CustomFieldDef[],
): GraphQLFieldConfigMap<unknown, RequestScope> {
  const out: GraphQLFieldConfigMap<unknown, RequestScope> = {};
  for (const r of resources) {
    const n = names.get(r.name)!;
    const type = new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(types.of(r.name))));
    const args = filterArgs(r, customFields(r));
    const listField: Root = {
      type,
      description: `${r.label} objects, filtered as the REST list ${r.plural} is`,
      args,
      resolve: (_s, a, scope, info) => list(scope, r, a, false, info),
    };
    const planOpts = { strict: true, customFields: customFields(r) };
    const netboxField: Root = {
      ...listField,
      args: { ...args, ...netboxTypes.listArgs(r, planOpts) },
      resolve: (_s, a, scope, info) => list(scope, r, a, true, info),
    };
    const oneField: Root = {
      type: types.of(r.name),
      description: `One ${r.label} by id`,
      args: { id: { type: new GraphQLNonNull(GraphQLID) } },
      resolve: (_s, a, scope) => one(scope, r, String(a.id)),
    };
    out[n.list] = listField;
    out[n.netboxList] = netboxField;
    out[n.one] = oneField;
  }
  return out;
}
