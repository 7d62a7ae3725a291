// A prefix's place in the containment tree, as Nautobot 2 shows it: `parent` (the nearest strictly
// containing prefix) and `children` (how many prefixes have it as their parent). Neither is stored: for a
// page, one read of its prefixes' ancestors and one of their direct children (app/prefix-tree.ts, as
// GraphQL reads them). (`parent=<id>` filters: app/prefix-parent-filter.ts.)
import { childrenOf, parentsOf, type FindRows } from '../app/prefix-tree.js';
import { resource } from '../engine/schema/registry.js';
import type { ResourceDef } from '../engine/schema/types.js';
import type { Row, Storage } from '../storage/types.js';
import type { JsonSchema } from './openapi/types.js';
import { TRUE, type Plan } from '../engine/plan/nodes.js';
import { within } from '../app/view-scope.js';

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

/**
 * Adds `parent` and `children` to serialized prefixes: on a single object unless `omit=` drops them;
 * on a list page only when `fields=` names them (they cost two more reads, and the children are read to
 * be counted: NetBox stores such counts, these are worked out).
 */
export async function addPrefixTree(
  storage: Storage,
  nest: (row: Row) => unknown,
  rows: readonly Row[],
  outs: Record<string, unknown>[],
  keep: ReadonlySet<string> | null | undefined,
  listPage: boolean,
  scope: Plan = TRUE,
): Promise<void> {
  const wanted = (name: string) => (keep ? keep.has(name) : !listPage);
  const wantParent = wanted('parent'),
    wantChildren = wanted('children');
  if (!wantParent && !wantChildren) return;
  // One read for the page's parents and one for its children, not one per object (app/prefix-tree.ts).
  const find: FindRows = async (r, plan, page) => {
    const all = { ...page, limit: Math.min(page.limit, Number.MAX_SAFE_INTEGER) }; // SQL's LIMIT takes no Infinity
    return (await storage.find(r.name, within(plan, scope), all, { noCount: true })).rows; // what the caller sees
  };
  const r = resource('prefix');
  const [parents, children] = await Promise.all([
    wantParent ? parentsOf(find, r, rows) : null,
    wantChildren ? childrenOf(find, r, rows) : null,
  ]);
  rows.forEach((row, i) => {
    if (parents) {
      const p = parents.get(row.id);
      outs[i].parent = p ? nest(p) : null;
    }
    if (children) outs[i].children = children.get(row.id)?.length ?? 0;
  });
}
