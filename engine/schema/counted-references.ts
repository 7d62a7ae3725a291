// Related counts come from the references that ask for them: a resource whose fk is marked `counted`
// gives its target a count (NetBox's `device_count` on sites), so adding a resource that refers to a
// site edits no file but its own.
import { count } from './common-fields.js';
import type { ResourceDef } from './types.js';

/**
 * The resources, each with the counts of the references to it, in the order the front page lists the
 * resources: by application (in the order applications first appear), then in registry order.
 * A resource that declares counts itself is an error: the referencing field says it.
 */
export function withCounts(resources: readonly ResourceDef[]): ResourceDef[] {
  const apps = [...new Set(resources.map((r) => r.app))];
  const byApp = [...resources].sort((a, b) => apps.indexOf(a.app) - apps.indexOf(b.app));
  const refs = byApp.flatMap((r) => r.fields.filter((f) => f.kind === 'fk' && f.counted).map((f) => ({ r, f })));
  return resources.map((target) => {
    if (target.counts) throw new Error(`schema: ${target.name} declares counts: mark the referencing fields counted`);
    const counts = refs
      .filter(({ f }) => f.target === target.name)
      .map(({ r, f }) => count(r.name, f.name, typeof f.counted === 'string' ? f.counted : undefined));
    return counts.length ? { ...target, counts } : target;
  });
}
