// `parent=<prefix id>` as the planner takes it (the REST list and GraphQL's `parent:` argument alike):
// a prefix id becomes that prefix's CIDR, a CIDR stays; an id of no prefix is an error naming `parent`
// (`found`: the caller's read, so that a prefix it may not view is no prefix, as on its detail).
import { resource } from '../engine/schema/registry.js';
import { idStyleOf } from '../engine/schema/id-style.js';
import type { ResourceDef } from '../engine/schema/types.js';
import type { Row, Storage } from '../storage/types.js';

export async function parentFilterPairs(
  storage: Storage,
  r: ResourceDef,
  pairs: [string, string][],
  found: (id: string) => Promise<Row | null> = async (id) => (await storage.getMany('prefix', [id]))[0] ?? null,
): Promise<{ pairs: [string, string][] } | { errors: Record<string, string[]> }> {
  const idOf = (v: string) => idStyleOf(resource('prefix'), storage.ids).parse(v.trim());
  if (r.name !== 'prefix' || !pairs.some(([k, v]) => k === 'parent' && idOf(v) !== null)) return { pairs };
  const out: [string, string][] = [];
  for (const [k, v] of pairs) {
    const id = k === 'parent' ? idOf(v) : null;
    if (id === null) {
      out.push([k, v]);
      continue;
    }
    const row = await found(id);
    if (!row) return { errors: { parent: [`No prefix with id ${v.trim()}.`] } };
    out.push([k, String(row.prefix)]);
  }
  return { pairs: out };
}
