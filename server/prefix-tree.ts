// A prefix's place in the containment tree, as Nautobot 2 shows it: `parent` (the nearest strictly
// containing prefix) and `children` (how many prefixes have it as their parent). Neither is stored:
// each is one query the containment index answers on memory (and the B-tree on SQL), made for the
// objects of a page as they are read. (`parent=<id>` filters: app/prefix-parent-filter.ts.)
import { broadcastOf, networkOf, parseCidr } from '../engine/net/ip.js';
import { net, type NetOp, type Plan } from '../engine/plan/nodes.js';
import type { ResourceDef } from '../engine/schema/types.js';
import type { Row, Storage } from '../storage/types.js';
import type { JsonSchema } from './openapi/types.js';

/** The read-only fields this adds to prefixes, for the OpenAPI document and OPTIONS. */
export const PREFIX_TREE_FIELDS = {
  parent: {
    schema: {
      title: 'Parent',
      readOnly: true,
      description: 'The nearest prefix strictly containing this one (same family), or null.',
      anyOf: [{ $ref: '#/components/schemas/BriefPrefix' }, { type: 'null' }],
    } as JsonSchema,
    meta: { type: 'field', label: 'Parent' },
  },
  children: {
    schema: {
      title: 'Children',
      readOnly: true,
      type: 'integer',
      minimum: 0,
      description: 'How many prefixes have this one as their parent.',
    } as JsonSchema,
    meta: { type: 'integer', label: 'Children' },
  },
} as const;

export const hasPrefixTree = (r: ResourceDef): boolean => r.name === 'prefix';

function blockPlan(prefix: unknown, op: NetOp): Plan | null {
  const c = typeof prefix === 'string' ? parseCidr(prefix) : null;
  return (
    c &&
    net(
      'network',
      op,
      c.family,
      networkOf(c.family, c.host, c.length),
      broadcastOf(c.family, c.host, c.length),
      c.length,
    )
  );
}

/** The parent row of a prefix: the longest containing block, the first id among repeats of it. */
async function parentOf(storage: Storage, prefix: unknown): Promise<Row | null> {
  const plan = blockPlan(prefix, 'contains');
  if (!plan) return null;
  const got = await storage.find('prefix', plan, {
    limit: 1,
    offset: 0,
    ordering: [
      { field: 'prefix_length', desc: true },
      { field: 'id', desc: false },
    ],
  });
  return got.rows[0] ?? null;
}

async function childCount(storage: Storage, prefix: unknown): Promise<number> {
  const plan = blockPlan(prefix, 'child_of');
  return plan ? (await storage.find('prefix', plan, { limit: 0, offset: 0, ordering: [] })).count : 0;
}

/**
 * Adds `parent` and `children` to serialized prefixes: on a single object unless `omit=` drops them;
 * on a list page only when `fields=` names them (each costs a query per object, which would make
 * every page of prefixes several times slower: NetBox stores such counts, these are worked out).
 */
export async function addPrefixTree(
  storage: Storage,
  nest: (row: Row) => unknown,
  rows: readonly Row[],
  outs: Record<string, unknown>[],
  keep: ReadonlySet<string> | null | undefined,
  listPage: boolean,
): Promise<void> {
  const wanted = (name: string) => (keep ? keep.has(name) : !listPage);
  const wantParent = wanted('parent'),
    wantChildren = wanted('children');
  if (!wantParent && !wantChildren) return;
  await Promise.all(
    rows.map(async (row, i) => {
      if (wantParent) {
        const p = await parentOf(storage, row.prefix);
        outs[i].parent = p ? nest(p) : null;
      }
      if (wantChildren) outs[i].children = await childCount(storage, row.prefix);
    }),
  );
}
