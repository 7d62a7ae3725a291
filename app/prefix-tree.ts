// A prefix's place in the containment tree, for many prefixes at once (a REST page, a GraphQL level): each
// one's parent (the longest strictly containing prefix, the first id among repeats of it) and its direct
// children (the REST list `?parent=<id>`). One read of all their blocks' ancestors, or of all their blocks'
// direct children; each row found is then given to the nearest of the asked blocks containing it. Neither
// is stored: the containment index answers on memory, the B-tree on SQL.
import { NET_CHILD_OF } from '../engine/filters/lookups.js';
import { filtersOf } from '../engine/filters/filter-set.js';
import { networkOf, parseCidr, type Cidr } from '../engine/net/ip.js';
import { and, net, or, TRUE, type NetOp, type Plan } from '../engine/plan/nodes.js';
import type { Page } from '../engine/plan/page.js';
import { netPartField } from '../engine/schema/registry.js';
import type { ResourceDef } from '../engine/schema/types.js';
import type { Row } from '../storage/types.js';

/** Every row of `r` a plan matches, in the page's order (the caller's read: storage, or a request's budget). */
export type FindRows = (r: ResourceDef, plan: Plan, page: Page) => Promise<readonly Row[]>;

/** The CIDR field of a resource whose list has a direct-children filter (prefixes), else null. */
export function treeField(r: ResourceDef): string | null {
  if (![...filtersOf(r).values()].some((s) => s.base === NET_CHILD_OF)) return null;
  return r.fields.find((f) => f.kind === 'prefix')?.name ?? null;
}

const keyOf = (family: number, network: string, length: number) => `${family}/${network}/${length}`;

function cidrOf(row: Row, field: string): Cidr | null {
  const v = row[field];
  return typeof v === 'string' ? parseCidr(v) : null;
}

const blockPlan = (c: Cidr, op: NetOp): Plan => net('network', op, c.family, c.network, c.broadcast, c.length);

const blocksPlan = (rows: Iterable<Row>, field: string, op: NetOp): Plan =>
  or(
    [...rows]
      .map((p) => cidrOf(p, field))
      .filter((c): c is Cidr => c !== null)
      .map((c) => blockPlan(c, op)),
  );

/** The nearest block of `blocks` strictly containing `c` (its key), or null. */
function nearest(c: Cidr, blocks: ReadonlyMap<string, unknown>): string | null {
  for (let l = c.length - 1; l >= 0; l--) {
    const key = keyOf(c.family, networkOf(c.family, c.host, l), l);
    if (blocks.has(key)) return key;
  }
  return null;
}

/** The parent of each of `rows` (by id; null where none contains it), in one read. */
export async function parentsOf(
  find: FindRows,
  r: ResourceDef,
  rows: readonly Row[],
): Promise<Map<string, Row | null>> {
  const field = treeField(r)!;
  const ordering = [
    { field: netPartField(r, 'length')!, desc: true },
    { field: 'id', desc: false },
  ];
  const found = await find(r, blocksPlan(rows, field, 'contains'), { limit: Infinity, offset: 0, ordering });
  const first = new Map<string, Row>();
  for (const a of found) {
    const c = cidrOf(a, field);
    const k = c && keyOf(c.family, c.network, c.length);
    if (k && !first.has(k)) first.set(k, a);
  }
  const out = new Map<string, Row | null>();
  for (const row of rows) {
    const c = cidrOf(row, field);
    const k = c && nearest(c, first);
    out.set(row.id, k ? first.get(k)! : null);
  }
  return out;
}

/** The direct children of each of `parents` matching `own` (by parent id, in `page`'s order), in one read. */
export async function childrenOf(
  find: FindRows,
  r: ResourceDef,
  parents: readonly Row[],
  own: Plan = TRUE,
  ordering: Page['ordering'] = [],
): Promise<Map<string, Row[]>> {
  const field = treeField(r)!;
  const rows = await find(r, and([blocksPlan(parents, field, 'child_of'), own]), {
    limit: Infinity,
    offset: 0,
    ordering,
  });
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
