// A small schema for the NetBox filter input's tests: `<name>_list(filters:, pagination:)` of every inventory
// resource answering `{id, display}` from a store, planned by netboxFiltersPlan (the real root fields are
// gql-core's; this one holds only what the filter input needs).
import { GraphQLError, GraphQLID, GraphQLList, GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { NetboxFilterTypes, netboxFiltersPlan } from '../../../app/graphql/netbox-filters.js';
import type { PlanOptions } from '../../../engine/plan/planner.js';
import { RESOURCES } from '../../../engine/schema/registry.js';
import type { Storage } from '../../../storage/types.js';

const Item = new GraphQLObjectType({
  name: 'Item',
  fields: { id: { type: GraphQLID }, display: { type: GraphQLString } },
});

export function filtersSchema(storage: Storage, types = new NetboxFilterTypes()): GraphQLSchema {
  const opts: PlanOptions = { strict: true, customFields: [], ids: storage.ids };
  const fields = Object.fromEntries(
    RESOURCES.filter((r) => r.inventory !== false).map((r) => [
      `${r.name}_list`,
      {
        type: new GraphQLList(Item),
        args: types.listArgs(r, opts),
        resolve: async (_: unknown, args: { filters?: unknown; pagination?: { offset?: number; limit?: number } }) => {
          const planned = netboxFiltersPlan(r, args.filters ?? {}, opts);
          if (!planned.ok) throw new GraphQLError(planned.message);
          const page = {
            offset: args.pagination?.offset ?? 0,
            limit: args.pagination?.limit ?? 1_000_000,
            ordering: [],
          };
          const found = await storage.find(r.name, planned.plan, page);
          return found.rows.map((row) => ({ id: row.id, display: row[r.displayField] }));
        },
      },
    ]),
  );
  return new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields }) });
}
