// The schema's names, all derived from the registry. Object types: `<Pascal name>Type` (SiteType,
// DeviceTypeType, IpAddressType), as NetBox names them. Root fields: Nautobot's list is the REST plural with
// underscores (`ip_addresses`), or, when another resource already serves that plural (a VM interface's
// `interfaces`), its label's words (`vm_interfaces`); NetBox 3.7's list is `<name>_list`; one object is
// `<name>(id:)`. Any clash stops the schema's build, naming both.
import type { ResourceDef } from '../../engine/schema/types.js';
import { pluralName } from '../../engine/schema/reverse-refs.js';

const pascal = (s: string) =>
  s
    .split(/[_\-\s]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

export const typeName = (r: ResourceDef): string => `${pascal(r.name)}Type`;

/** A word's plural as the registry's plurals go (`address` -> `addresses`, `interface` -> `interfaces`). */
const pluralOf = (w: string) =>
  /(s|x|ch|sh)$/.test(w) ? `${w}es` : /[^aeiou]y$/.test(w) ? `${w.slice(0, -1)}ies` : `${w}s`;

export interface RootNames {
  readonly list: string; // Nautobot: `sites`
  readonly netboxList: string; // NetBox 3.7: `site_list`
  readonly one: string; // both: `site(id:)`
}

/** The root field names of each resource, in registry order; a clash anywhere throws. */
export function rootNames(resources: readonly ResourceDef[]): ReadonlyMap<string, RootNames> {
  const taken = new Map<string, string>();
  const claim = (name: string, r: ResourceDef) => {
    const other = taken.get(name);
    if (other) throw new Error(`graphql: root field ${name} of ${r.name} is ${other}'s already`);
    taken.set(name, r.name);
    return name;
  };
  const plurals = new Set<string>();
  const out = new Map<string, RootNames>();
  for (const r of resources) {
    let list = pluralName(r);
    if (plurals.has(list)) list = pluralOf(r.label.toLowerCase().replace(/[^a-z0-9]+/g, '_'));
    plurals.add(list);
    out.set(r.name, { list, netboxList: `${r.name}_list`, one: r.name });
  }
  for (const r of resources) {
    const n = out.get(r.name)!;
    claim(n.list, r);
    claim(n.netboxList, r);
    claim(n.one, r);
  }
  return out;
}
