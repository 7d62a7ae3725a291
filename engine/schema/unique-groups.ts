// What must be unique in a resource: each unique field alone and each unique-together group, with
// the message a clash reports on the group's last field. The stores and the write service's
// pre-check all read them here, so a clash reads the same wherever it is caught.
import { MSG } from './messages.js';
import { field } from './registry.js';
import type { ResourceDef } from './types.js';

export interface UniqueGroup {
  readonly fields: readonly string[];
  /** The field a clash is reported on: the group's last. */
  readonly field: string;
  readonly message: string;
}

const cache = new Map<string, readonly UniqueGroup[]>();

export function uniqueGroups(r: ResourceDef): readonly UniqueGroup[] {
  let groups = cache.get(r.name);
  if (!groups) {
    const label = (name: string) => field(r, name)?.label ?? name;
    const all = [...r.fields.filter((f) => f.unique).map((f) => [f.name]), ...(r.uniqueTogether ?? [])];
    groups = all.map((g) => ({ fields: g, field: g[g.length - 1], message: MSG.uniqueTaken(r.label, g.map(label)) }));
    cache.set(r.name, groups);
  }
  return groups;
}
