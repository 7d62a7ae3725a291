// Reverse references: for each foreign key F of a resource R naming T, T's list of the R rows that name
// it (a site's `devices`, a tenant's `sites`), named as NetBox and Nautobot serve them (their Django
// related names): R's plural with underscores; a tree's own parent link is `children`; when R has
// several such keys to T (or the plain name is taken on T), each is `<plural>_as_<fk>`. Deferred keys
// (a device's primary IP, which closes a cycle) and hidden ones give no list.
import type { FieldDef, ResourceDef } from './types.js';

export interface ReverseRef {
  /** The list's name on the target. */
  readonly name: string;
  /** The resource whose rows are listed (R) and its key naming the target (F). */
  readonly resource: ResourceDef;
  readonly field: FieldDef;
}

/** R's REST plural as a name: `ip-addresses` -> `ip_addresses`. */
export const pluralName = (r: ResourceDef): string => r.plural.replace(/-/g, '_');

/** The reverse references of every resource of `resources`, by target name (in registry order). */
export function reverseRefs(resources: readonly ResourceDef[]): ReadonlyMap<string, readonly ReverseRef[]> {
  const byName = new Map(resources.map((r) => [r.name, r]));
  const out = new Map<string, ReverseRef[]>();
  for (const r of resources) {
    const keys = r.fields.filter((f) => f.kind === 'fk' && !f.deferred && !f.hidden && byName.has(f.target!));
    for (const f of keys) {
      const target = byName.get(f.target!)!;
      const several = keys.filter((k) => k.target === f.target).length > 1;
      const plain = r.tree === f.name ? 'children' : pluralName(r);
      const taken = target.fields.some((x) => x.name === plain) || (target.counts ?? []).some((c) => c.name === plain);
      const name = several || taken ? `${pluralName(r)}_as_${f.name}` : plain;
      const list = out.get(target.name) ?? [];
      if (list.some((x) => x.name === name))
        throw new Error(`schema: ${target.name} gets two reverse references named ${name}`);
      list.push({ name, resource: r, field: f });
      out.set(target.name, list);
    }
  }
  return out;
}
