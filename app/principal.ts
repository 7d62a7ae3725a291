// Who a token speaks for: its user's model permissions, gathered from the user's enabled object
// permissions and its groups' (object types × actions), `*` for a superuser. A token of an earlier
// release that has no user yet keeps its own permission list.
import type { Row, Storage } from '../storage/types.js';
import { permissionFor, permissionOf } from '../engine/schema/model-permissions.js';
import { RESOURCES } from '../engine/schema/registry.js';
import { parseNetworks } from '../engine/net/client-address.js';
import type { Cidr } from '../engine/net/ip.js';

export interface Principal {
  readonly tokenId: string;
  /** `<app>.<action>_<model>` strings, or `*`: what `allows` reads. */
  readonly permissions: readonly string[];
  /** What change records name as user_name: the token's description, else its key's last characters. */
  readonly name: string;
  /** The token's user, or null for a token of an earlier release not yet given one. */
  readonly userId: string | null;
  /**
   * Per permission string granted by an object permission, the constraints that limit it, for reads and
   * writes to AND in (issue #39 point 2; REST reads of inventory resources AND them in, so the constrained
   * view permissions of those are in `permissions`, other constrained ones not yet): null when it is
   * unconstrained (some enabled object permission grants it with `constraints` null, or the user is a
   * superuser, or the token is of the old form); else the `constraints` of every object permission
   * granting it, exactly as stored (NetBox's JSON: an object ANDs its `path__lookup` pairs, a list ORs
   * such objects), and these OR together. `$user` in them stands for `userId`.
   */
  readonly constraints: Readonly<Record<string, readonly unknown[] | null>>;
  /** When the token stops being accepted (ms since the epoch), or null. */
  readonly expiresAt: number | null;
  /** The networks the token may be used from (allowed_ips); empty: anywhere. */
  readonly allowedIps: readonly Cidr[];
}

/** Read-only tokens (`write_enabled: false`) keep only their view permissions (`*` becomes every view). */
function readOnly(p: Pick<Principal, 'permissions' | 'constraints'>): Pick<Principal, 'permissions' | 'constraints'> {
  if (p.permissions.includes('*'))
    return {
      permissions: VIEW_ALL,
      constraints: Object.fromEntries(VIEW_ALL.map((x) => [x, null])),
    };
  const permissions = p.permissions.filter((x) => /^[^.]+\.view_/.test(x));
  return { permissions, constraints: Object.fromEntries(permissions.map((x) => [x, p.constraints[x] ?? null])) };
}

/** Permissions other than view on a resource written through app/inventory.ts, which applies their constraints. */
const CONSTRAINED_WRITES = {
  models: new Set(
    RESOURCES.filter((r) => r.inventory !== false && r.writable !== false).map((r) => permissionFor(r, '')),
  ),
  test(p: string): boolean {
    const m = /^([^.]+)\.(.+)_([a-z0-9]+)$/.exec(p); // a custom action may hold `_`, a model never does
    return !!m && m[2] !== 'view' && this.models.has(`${m[1]}._${m[3]}`);
  },
};

const VIEW_ALL: readonly string[] = RESOURCES.map((r) => permissionFor(r, 'view'));
/**
 * View permissions whose constraints REST reads AND in: the inventory resources' but the change log's (its
 * records are shown by the rights over the objects they record, not yet by constraints).
 */
const SCOPED_VIEWS: ReadonlySet<string> = new Set(
  RESOURCES.filter((r) => r.inventory !== false && r.name !== 'object_change').map((r) => permissionFor(r, 'view')),
);

export const tokenDisplay = (row: Row): string =>
  typeof row.description === 'string' && row.description ? row.description : `token …${String(row.key_tail)}`;

/** Every row of a small table (users, groups, permissions are read whole). */
export async function allRows(storage: Storage, resource: string): Promise<readonly Row[]> {
  const found = await storage.find(
    resource,
    { kind: 'const', value: true },
    { limit: 1_000_000, offset: 0, ordering: [] },
  );
  return found.rows;
}

/** The object permissions that apply to a user: enabled, naming the user or one of its groups. */
export function permissionsOfUser(user: Row, permissions: readonly Row[]): Row[] {
  const groups = new Set((user.groups as string[] | undefined) ?? []);
  return permissions.filter(
    (p) =>
      p.enabled !== false &&
      (((p.users as string[]) ?? []).includes(user.id) || ((p.groups as string[]) ?? []).some((g) => groups.has(g))),
  );
}

/** The model permissions and their constraints that `granted` object permissions add up to. */
export function modelPermissions(
  granted: readonly Row[],
  superuser: boolean,
): Pick<Principal, 'permissions' | 'constraints'> {
  if (superuser) return { permissions: ['*'], constraints: { '*': null } };
  const constraints: Record<string, unknown[] | null> = Object.create(null);
  for (const p of granted)
    for (const t of (p.object_types as string[]) ?? [])
      for (const a of (p.actions as string[]) ?? []) {
        const name = permissionOf(t, a);
        const c = p.constraints ?? null;
        if (c === null) constraints[name] = null;
        else if (constraints[name] !== null) (constraints[name] ??= []).push(c);
      }
  // A permission limited by constraints grants only where they are applied (issue #39): REST reads of the
  // inventory's resources (app/view-scope.ts) and their writes (app/write-scope.ts). Elsewhere it grants
  // nothing: granting it on every object would give more than NetBox does. Its constraints are kept.
  const permissions = Object.keys(constraints).filter(
    (k) => constraints[k] === null || SCOPED_VIEWS.has(k) || CONSTRAINED_WRITES.test(k),
  );
  return { permissions: permissions.sort(), constraints };
}

/** The principal of a stored token, or null when the token is disabled or its user is gone or inactive. */
export async function principalOf(storage: Storage, token: Row): Promise<Principal | null> {
  if (token.enabled === false) return null;
  const expires = typeof token.expires === 'string' ? Date.parse(token.expires) : null;
  const allowedIps = parseNetworks((token.allowed_ips as string[] | null) ?? []).nets;
  const base = { tokenId: token.id, name: tokenDisplay(token), expiresAt: expires, allowedIps };
  const narrow = token.write_enabled === false ? readOnly : (p: Pick<Principal, 'permissions' | 'constraints'>) => p;
  const userId = (token.user as string | null | undefined) ?? null;
  if (userId === null) {
    const permissions = (token.permissions as string[]) ?? [];
    return {
      ...base,
      userId,
      ...narrow({ permissions, constraints: Object.fromEntries(permissions.map((p) => [p, null])) }),
    };
  }
  const user = await storage.get('user', userId);
  if (!user || user.is_active === false) return null;
  const granted = user.is_superuser ? [] : permissionsOfUser(user, await allRows(storage, 'object_permission'));
  return { ...base, userId, ...narrow(modelPermissions(granted, user.is_superuser === true)) };
}
