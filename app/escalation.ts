// Nobody raises their own rights by a write they are allowed to make: a change of a user, group or
// object permission by a holder of users.change_* is refused when the writer's own user would hold
// afterwards a model permission it does not hold now, or hold one with looser constraints (joining a
// group, naming itself in a permission, adding an action or object type to a permission it is in,
// dropping a constraint). Superusers (`*`) hold everything already; making one stays theirs
// (app/user-writes.ts).
import type { Row, Storage } from '../storage/types.js';
import { allRows, modelPermissions, permissionsOfUser, type Principal } from './principal.js';

type Rights = Pick<Principal, 'permissions' | 'constraints'>;

function rightsOf(userId: string, users: readonly Row[], permissions: readonly Row[]): Rights | null {
  const user = users.find((u) => u.id === userId);
  if (!user || user.is_active === false) return null;
  return modelPermissions(user.is_superuser ? [] : permissionsOfUser(user, permissions), user.is_superuser === true);
}

/** The first permission `after` grants beyond `before` (new, or with a constraint `before` lacks), or null. */
function gained(before: Rights | null, after: Rights | null): string | null {
  if (!after) return null;
  if (!before) return Object.keys(after.constraints)[0] ?? null;
  if (before.permissions.includes('*')) return null;
  for (const [name, c] of Object.entries(after.constraints)) {
    if (!(name in before.constraints)) return name;
    const was = before.constraints[name];
    if (was === null) continue;
    if (c === null) return name;
    const had = new Set(was.map((x) => JSON.stringify(x)));
    if (c.some((x) => !had.has(JSON.stringify(x)))) return name;
  }
  return null;
}

/**
 * The permission a write of `row` (a user, group or object permission; created or changed) would
 * give the writer's own user beyond what it holds, or null when it gives none.
 */
export async function raisesOwnRights(
  storage: Storage,
  writerUserId: string | null,
  resource: 'user' | 'group' | 'object_permission',
  row: Row,
): Promise<string | null> {
  if (writerUserId === null || resource === 'group') return null; // a group's rights live in permissions and users
  const users = await allRows(storage, 'user');
  const permissions = await allRows(storage, 'object_permission');
  const replace = (list: readonly Row[]) => [...list.filter((x) => x.id !== row.id), row];
  const before = rightsOf(writerUserId, users, permissions);
  const after =
    resource === 'user'
      ? rightsOf(writerUserId, replace(users), permissions)
      : rightsOf(writerUserId, users, replace(permissions));
  return gained(before, after);
}
