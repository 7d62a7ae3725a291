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
import { NET_CHILD_OF } from '../../engine/filters/lookups.js';
import { filtersOf } from '../../engine/filters/filter-set.js';
import { networkOf, parseCidr, type Cidr } from '../../engine/net/ip.js';
import { and, net, or, type NetOp, type Plan } from '../../engine/plan/nodes.js';
import { defaultOrdering } from '../../engine/plan/page.js';
import { netPartField } from '../../engine/schema/registry.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import type { Row } from '../../storage/types.js';
import { Batch } from './batch.js';
import { planArgs } from './filter-args.js';
import { pageArgs } from './paging.js';
import type { RequestScope } from './request-scope.js';

type Field = GraphQLFieldConfig<Row, RequestScope, Record<string, unknown>>;
type Args = Readonly<Record<string, unknown>>;

/** The CIDR field of a resource whose list has a direct-children filter (prefixes), else null. */
function treeField(r: ResourceDef): string | null {
  if (![...filtersOf(r).values()].some((s) => s.base === NET_CHILD_OF)) return null;
  return r.fields.find((f) => f.kind === 'prefix')?.name ?? null;
}

const keyOf = (family: number, network: string, length: number) => `${family}/${network}/${length}`;

function cidrOf(row: Row, field: string): Cidr | null {
  const v = row[field];
  return typeof v === 'string' ? parseCidr(v) : null;
}

const blockPlan = (c: Cidr, op: NetOp): Plan => net('network', op, c.family, c.network, c.broadcast, c.length);

/** The nearest block of `blocks` strictly containing `c` (its key), or null. */
function nearest(c: Cidr, blocks: ReadonlyMap<string, unknown>): string | null {
  for (let l = c.length - 1; l >= 0; l--) {
    const key = keyOf(c.family, networkOf(c.family, c.host, l), l);
    if (blocks.has(key)) return key;
  }
  return null;
}

/** Rows grouped by the nearest of `parents`' blocks containing each, by parent id. */
function byNearestParent(parents: readonly Row[], rows: readonly Row[], field: string): Map<string, Row[]> {
  const idsOfBlock = new Map<string, string[]>();
  for (const p of parents) {
    const c = cidrOf(p, field);
    if (!c) continue;
    const k = keyOf(c.family, c.network, c.length);
    idsOfBlock.set(k, [...(idsOfBlock.get(k) ?? []), p.id]);
  }
  const out = new Map<string, Row[]>(parents.map((p) => [p.id, []]));
  for (const x of rows) {
    const c = cidrOf(x, field);
    const key = c && nearest(c, idsOfBlock);
    for (const id of key ? idsOfBlock.get(key)! : []) out.get(id)!.push(x);
  }
  return out;
}

const cidrsOf = (rows: Iterable<Row>, field: string) =>
  [...rows].map((p) => cidrOf(p, field)).filter((c): c is Cidr => c !== null);

/** Direct children of every parent of the level, with the list's own filters, each parent's page. */
function childrenBatch(scope: RequestScope, r: ResourceDef, field: string, key: unknown, args: Args) {
  return scope.batch(
    key,
    () =>
      new Batch<Row[], Row>(async (_ids, parents) => {
        const own = await planArgs(scope, r, args);
        const plan = and([or(cidrsOf(parents.values(), field).map((c) => blockPlan(c, 'child_of'))), own]);
        const rows = await scope.find(r, plan, { limit: Infinity, offset: 0, ordering: defaultOrdering(r) });
        const groups = byNearestParent([...parents.values()], rows, field);
        const { limit, offset } = pageArgs(scope, args);
        if (limit !== Infinity || offset) for (const [k, g] of groups) groups.set(k, g.slice(offset, offset + limit));
        return groups;
      }),
  );
}

/** The parent of every prefix of the level: their blocks' ancestors in one read. */
function parentBatch(scope: RequestScope, r: ResourceDef, field: string, key: unknown) {
  return scope.batch(
    key,
    () =>
      new Batch<Row | null, Row>(async (_ids, rows) => {
        const plan = or(cidrsOf(rows.values(), field).map((c) => blockPlan(c, 'contains')));
        const length = netPartField(r, 'length')!;
        const ordering = [
          { field: length, desc: true },
          { field: 'id', desc: false },
        ];
        const found = await scope.find(r, plan, { limit: Infinity, offset: 0, ordering });
        const first = new Map<string, Row>();
        for (const a of found) {
          const c = cidrOf(a, field);
          const k = c && keyOf(c.family, c.network, c.length);
          if (k && !first.has(k)) first.set(k, a);
        }
        const out = new Map<string, Row | null>();
        for (const [id, row] of rows) {
          const c = cidrOf(row, field);
          const k = c && nearest(c, first);
          out.set(id, k ? first.get(k)! : null);
        }
        return out;
      }),
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
  const field = treeField(r);
  if (!field) return {};
  const parentKey = { r, key: PARENT };
  const countKey = { r, key: CHILD_COUNT };
  return {
    parent: {
      type,
      description: 'The nearest prefix strictly containing this one (same family), or null.',
      resolve: async (row, _a, scope) => (await parentBatch(scope, r, field, parentKey).load(row.id, row)) ?? null,
    },
    children: {
      type: new GraphQLList(new GraphQLNonNull(type)),
      description: 'Its direct children: the REST list ?parent=<id>, with that list’s filters.',
      args,
      resolve: async (row, a, scope, info) =>
        (await childrenBatch(scope, r, field, info.fieldNodes[0], a).load(row.id, row)) ?? [],
    },
    children_count: {
      type: GraphQLInt,
      description: 'How many prefixes have this one as their parent (the REST `children` number).',
      resolve: async (row, _a, scope) =>
        (await childrenBatch(scope, r, field, countKey, {}).load(row.id, row))?.length ?? 0,
    },
  };
}
