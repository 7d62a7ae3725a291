// NetBox's ORM names that are not the product's, as the product path each stands for. Every other
// name a constraint uses is the registry's (NetBox's own in almost every case: the NetBox import maps
// columns to fields of the same names, storage/netbox-import/mapping.ts). `'*'`: on every resource.
import type { ResourceDef } from '../schema/types.js';

/** NetBox 4.2+ scopes prefixes and clusters (`scope`) and caches the scope's site, region and site
 * group as `_site`, `_region`, `_site_group`; the product keeps the site itself. */
const SCOPE_CACHE = { _site: ['site'], _region: ['site', 'region'], _site_group: ['site', 'group'] } as const;

export const NETBOX_NAMES: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  '*': { pk: ['id'] },
  prefix: SCOPE_CACHE,
  cluster: SCOPE_CACHE,
};

const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** The product path a NetBox name stands for on `r`, or null when the name is not one of these. */
export function netboxName(r: ResourceDef, name: string): readonly string[] | null {
  const names = NETBOX_NAMES[r.name];
  if (names && own(names, name)) return names[name];
  return own(NETBOX_NAMES['*'], name) ? NETBOX_NAMES['*'][name] : null;
}
