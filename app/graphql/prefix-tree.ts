// A prefix's place in the containment tree, as REST serves it (server/prefix-tree.ts): `parent` (the
// longest strictly containing prefix, the first id among repeats of it), `children` (its direct children:
// the REST list `?parent=<id>`, with that list's filters) and `children_count` (the REST `children`
// number). For all the prefixes of a level at once: one read of their blocks' ancestors or children,
// then each row is given to the nearest of the level's blocks containing it.
import {
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLObjectType,
} from 'graphql';
import { defaultOrdering } from '../../engine/plan/page.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import type { Row } from '../../storage/types.js';
import { childrenOf, parentsOf, treeField, type FindRows } from '../prefix-tree.js';
import { Batch } from './batch.js';
import { planArgs } from './filter-args.js';
import { pageArgs } from './paging.js';
import type { RequestScope } from './request-scope.js';

type Field = GraphQLFieldConfig<Row, RequestScope, Record<string, unknown>>;
type Args = Readonly<Record<string, unknown>>;

/** The request's reads (counted against GRAPHQL_MAX_OBJECTS). */
const reads =
  (scope: RequestScope): FindRows =>
  (r, plan, page) =>
    scope.find(r, plan, page);

/** Direct children of every parent of the level, with the list's own filters, each parent's page. */
function childrenBatch(scope: RequestScope, r: ResourceDef, key: unknown, args: Args) {
  return scope.batch(
    key,
    () =>
      new Batch<Row[], Row>(async (_ids, parents) => {
        const own = await planArgs(scope, r, args);
        const groups = await childrenOf(reads(scope), r, [...parents.values()], own, defaultOrdering(r));
        const { limit, offset } = pageArgs(scope, args);
        if (limit !== Infinity || offset) for (const [k, g] of groups) groups.set(k, g.slice(offset, offset + limit));
        return groups;
      }),
  );
}

/** The parent of every prefix of the level: their blocks' ancestors in one read. */
function parentBatch(scope: RequestScope, r: ResourceDef, key: unknown) {
  return scope.batch(
    key,
    () => new Batch<Row | null, Row>((_ids, rows) => parentsOf(reads(scope), r, [...rows.values()])),
  );
}

const PARENT = Symbol('parent');
const CHILD_COUNT = Symbol('children_count');

/** `parent`, `children` and `children_count` of a resource with a containment tree (prefixes), else none. */
export function prefixTreeFields(
  r: ResourceDef,
  type: GraphQLObjectType,
  args: GraphQLFieldConfigArgumentMap,
): Record<string, Field> {
  if (!treeField(r)) return {};
  const parentKey = { r, key: PARENT };
  const countKey = { r, key: CHILD_COUNT };
  return {
    parent: {
      type,
      description: 'The nearest prefix strictly containing this one (same family), or null.',
      resolve: async (row, _a, scope) => (await parentBatch(scope, r, parentKey).load(row.id, row)) ?? null,
    },
    children: {
      type: new GraphQLList(new GraphQLNonNull(type)),
      description: 'Its direct children: the REST list ?parent=<id>, with that list’s filters.',
      args,
      resolve: async (row, a, scope, info) =>
        (await childrenBatch(scope, r, info.fieldNodes[0], a).load(row.id, row)) ?? [],
    },
    children_count: {
      type: GraphQLInt,
      description: 'How many prefixes have this one as their parent (the REST `children` number).',
      resolve: async (row, _a, scope) => (await childrenBatch(scope, r, countKey, {}).load(row.id, row))?.length ?? 0,
    },
  };
}
