// A GraphQL service over a fresh store of each backend, and the REST answer to compare with: the same
// parameters planned by the planner and read by Inventory.find in the REST default order.
import { expect } from 'chai';
import type { ExecutionResult } from 'graphql';
import {
  DEFAULT_GRAPHQL_LIMITS,
  VIEW_ALL,
  type GraphqlLimits,
  type GraphqlViewer,
} from '../../../app/graphql/contract.js';
import { GraphqlService } from '../../../app/graphql/run-graphql.js';
import { Inventory } from '../../../app/inventory.js';
import { defaultOrdering } from '../../../engine/plan/page.js';
import { planQuery } from '../../../engine/plan/planner.js';
import { parseQuery } from '../../../engine/query/index.js';
import type { IdStyleName } from '../../../engine/schema/id-style.js';
import { resource } from '../../../engine/schema/registry.js';
import { createStorage } from '../../../storage/open-storage.js';
import type { Storage } from '../../../storage/types.js';

export interface Harness {
  readonly storage: Storage;
  readonly inv: Inventory;
  readonly gql: GraphqlService;
  run(query: string, opts?: { limits?: Partial<GraphqlLimits>; viewer?: GraphqlViewer }): Promise<ExecutionResult>;
  /** `data` of a query that must succeed. */
  data(query: string, variables?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Ids REST lists for `name` with these parameters, in REST's order. */
  restIds(name: string, pairs: [string, string][]): Promise<string[]>;
  close(): Promise<void>;
}

export async function harness(url: string, idStyle?: IdStyleName): Promise<Harness> {
  const storage = await createStorage(url, { idStyle });
  await storage.open();
  const inv = new Inventory(storage);
  const gql = new GraphqlService(inv, storage);
  const run = (query: string, opts: { limits?: Partial<GraphqlLimits>; viewer?: GraphqlViewer } = {}) =>
    gql.run({ query }, { limits: { ...DEFAULT_GRAPHQL_LIMITS, ...opts.limits }, viewer: opts.viewer ?? VIEW_ALL });
  return {
    storage,
    inv,
    gql,
    run,
    async data(query, variables) {
      const got = await gql.run({ query, variables }, { limits: DEFAULT_GRAPHQL_LIMITS, viewer: VIEW_ALL });
      expect(got.errors ?? [], JSON.stringify(got.errors)).to.deep.equal([]);
      return got.data as Record<string, unknown>;
    },
    async restIds(name, pairs) {
      const r = resource(name);
      const planned = planQuery(r, parseQuery(pairs), {
        strict: true,
        customFields: await inv.customFieldsFor(r),
        ids: storage.ids,
      });
      expect(planned.errors).to.deep.equal({});
      const got = await inv.find(r, planned.plan, { limit: 100000, offset: 0, ordering: defaultOrdering(r) });
      return got.rows.map((x) => x.id);
    },
    async close() {
      inv.close();
      await storage.close();
    },
  };
}

export const ids = (list: unknown): string[] => (list as { id: string }[]).map((x) => x.id);
