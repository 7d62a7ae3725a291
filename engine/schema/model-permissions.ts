// Model permissions as NetBox names them: `<app>.<action>_<model>` (`dcim.view_site`, `ipam.add_ipaddress`),
// the model being the resource's name without underscores; `*` grants everything. An object permission
// grants the product of its object types ("app.model" content types) and its actions.
import { contentType, RESOURCES } from './registry.js';
import type { ResourceDef } from './types.js';

/** NetBox's four actions; an object permission may name custom ones besides. */
export const STANDARD_ACTIONS = ['view', 'add', 'change', 'delete'] as const;

const modelOf = (name: string): string => name.replace(/_/g, '');

export function permissionFor(r: Pick<ResourceDef, 'app' | 'name'>, action: string): string {
  return `${r.app}.${action}_${modelOf(r.name)}`;
}

/** 'dcim.site' × 'view' -> 'dcim.view_site' (a content type naming no resource: its model part as written). */
export function permissionOf(objectType: string, action: string): string {
  const dot = objectType.indexOf('.');
  return `${objectType.slice(0, dot)}.${action}_${modelOf(objectType.slice(dot + 1))}`;
}

/** `<app>.<model>` as permissions spell it -> the content type (`ipam.ipaddress` -> `ipam.ip_address`). */
const TYPE_OF_MODEL = new Map(RESOURCES.map((r) => [`${r.app}.${modelOf(r.name)}`, contentType(r)]));

/** Every content type of the registry: what an object permission's `object_types` may name. */
export const OBJECT_TYPES: ReadonlySet<string> = new Set(RESOURCES.map(contentType));

/**
 * A content type as given: the product's (`ipam.ip_address`) or NetBox's spelling of the same model
 * (`ipam.ipaddress`, `users.objectpermission`), as the product's; null when it names no resource.
 */
export function objectTypeOf(given: string): string | null {
  return OBJECT_TYPES.has(given) ? given : (TYPE_OF_MODEL.get(given) ?? null);
}

/** The object type and action a standard model permission names (`dcim.view_site`), or null (`*`, other forms). */
export function splitPermission(p: string): { readonly objectType: string; readonly action: string } | null {
  const m = /^([a-z]+)\.(view|add|change|delete)_([a-z]+)$/.exec(p);
  if (!m) return null;
  const key = `${m[1]}.${m[3]}`;
  return { objectType: TYPE_OF_MODEL.get(key) ?? key, action: m[2] };
}
