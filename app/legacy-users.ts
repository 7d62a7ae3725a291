// Tokens of the old form: a list of model permissions held by the token itself. Each becomes a user
// holding equivalent object permissions (issue #39 point 4): a token of an earlier release at start,
// a configured token (user `config-<n>`), a token created through the API with a `permissions` list.
// `*` makes the user a superuser; other permissions are grouped so that each object permission's
// object types × actions is exactly a part of the list (nothing more is granted than the list held).
import { splitPermission } from '../engine/schema/model-permissions.js';
import { versionOf, type Row, type Storage, type WriteOp } from '../storage/types.js';
import { allRows } from './principal.js';

export interface Grant {
  readonly object_types: readonly string[];
  readonly actions: readonly string[];
}

/** A permission list as superuser flag and object permissions (object types sharing one action set). */
export function grantsOf(permissions: readonly string[]): { superuser: boolean; grants: Grant[] } {
  if (permissions.includes('*')) return { superuser: true, grants: [] };
  const actionsOf = new Map<string, Set<string>>();
  for (const p of permissions) {
    const s = splitPermission(p);
    if (s) (actionsOf.get(s.objectType) ?? actionsOf.set(s.objectType, new Set()).get(s.objectType)!).add(s.action);
  }
  const byActions = new Map<string, string[]>();
  for (const [t, acts] of actionsOf) {
    const key = [...acts].sort().join(' ');
    (byActions.get(key) ?? byActions.set(key, []).get(key)!).push(t);
  }
  const grants = [...byActions].map(([acts, types]) => ({ object_types: types.sort(), actions: acts.split(' ') }));
  return { superuser: false, grants };
}

const userRow = (id: string, username: string, superuser: boolean, now: string): Row => ({
  id,
  created: now,
  last_updated: now,
  version: 1,
  username,
  password: null,
  first_name: '',
  last_name: '',
  email: '',
  is_active: true,
  is_staff: false,
  is_superuser: superuser,
  date_joined: now,
  last_login: null,
  groups: [],
});

const sameGrants = (held: readonly Row[], want: readonly Grant[]): boolean =>
  held.length === want.length &&
  want.every((g) =>
    held.some(
      (p) =>
        p.constraints === null &&
        p.enabled !== false &&
        JSON.stringify(p.object_types) === JSON.stringify(g.object_types) &&
        JSON.stringify([...(p.actions as string[])].sort()) === JSON.stringify([...g.actions].sort()),
    ),
  );

/**
 * The writes that make user `username` hold exactly `permissions` through object permissions of its
 * own (named after it, granted to it alone): none when it already does. Returns the user's id.
 */
export async function legacyUserOps(
  storage: Storage,
  username: string,
  permissions: readonly string[],
): Promise<{ userId: string; ops: WriteOp[] }> {
  const now = new Date().toISOString();
  const { superuser, grants } = grantsOf(permissions);
  const [existing] = await storage.findBy('user', 'username', username);
  const ops: WriteOp[] = [];
  let userId: string;
  let held: Row[] = [];
  if (existing) {
    userId = existing.id;
    held = (await allRows(storage, 'object_permission')).filter(
      (p) => JSON.stringify(p.users) === JSON.stringify([userId]) && String(p.name).startsWith(username),
    );
    if (existing.is_superuser !== superuser) {
      const row = { ...existing, is_superuser: superuser, last_updated: now, version: versionOf(existing) + 1 };
      ops.push({ op: 'update', resource: 'user', row, before: existing, expectVersion: versionOf(existing) });
    }
    if (sameGrants(held, grants)) return { userId, ops };
    for (const p of held) ops.push({ op: 'delete', resource: 'object_permission', id: p.id, before: p });
  } else {
    userId = (await storage.newIds('user', 1))[0];
    ops.push({ op: 'create', resource: 'user', row: userRow(userId, username, superuser, now) });
  }
  const ids = await storage.newIds('object_permission', grants.length);
  grants.forEach((g, i) =>
    ops.push({
      op: 'create',
      resource: 'object_permission',
      row: {
        id: ids[i],
        created: now,
        last_updated: now,
        version: 1,
        name: grants.length > 1 ? `${username} (${i + 1})` : username,
        description: 'granted by a token of the old form (a list of permissions)',
        enabled: true,
        object_types: [...g.object_types],
        actions: [...g.actions],
        constraints: null,
        users: [userId],
        groups: [],
      },
    }),
  );
  return { userId, ops };
}
