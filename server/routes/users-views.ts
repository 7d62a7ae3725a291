// How users, groups and object permissions are answered (NetBox's shapes): ids lists as brief
// objects, a user's and a group's permissions and a group's users found from the rows naming them.
import { resource } from '../../engine/schema/registry.js';
import { idStyleOf, type IdStyle } from '../../engine/schema/id-style.js';
import type { Row, Storage } from '../../storage/types.js';
import { allRows } from '../../app/principal.js';
import { objectUrl } from '../serialize.js';
import { ID_LISTS, type UsersResource } from '../../app/user-writes.js';
import type { FieldDef } from '../../engine/schema/types.js';

type Json = Record<string, unknown>;

/** What a page's rows name: the rows of those resources, by id. */
interface Named {
  readonly user: ReadonlyMap<string, Row>;
  readonly group: ReadonlyMap<string, Row>;
  readonly object_permission: readonly Row[];
}

/** The fields of a brief (nested) user, group or permission. */
export const BRIEF: Readonly<Record<UsersResource, readonly string[]>> = {
  user: ['username'],
  group: ['name', 'description'],
  object_permission: ['name', 'description', 'enabled', 'object_types', 'actions'],
};

function brief(base: string, ids: IdStyle, name: UsersResource, row: Row): Json {
  const r = resource(name);
  const out: Json = {
    id: idStyleOf(r, ids).toJson(row.id),
    url: objectUrl(base, r, row.id),
    display: String(row[r.displayField]),
  };
  for (const f of BRIEF[name]) out[f] = row[f];
  return out;
}

const briefs = (base: string, ids: IdStyle, name: 'user' | 'group', list: unknown, by: ReadonlyMap<string, Row>) =>
  ((list as string[]) ?? []).flatMap((id) => (by.has(id) ? [brief(base, ids, name, by.get(id)!)] : []));

const BASE = new Set(['id', 'created', 'last_updated']);
/** The registry fields served as stored: every visible one but id (served first), the times, and the id lists. */
export const servedFields = (name: UsersResource): readonly FieldDef[] =>
  resource(name).fields.filter((f) => !f.hidden && !BASE.has(f.name) && !(f.name in ID_LISTS[name]));

/** Fields served besides them: brief objects of the resource named (found from the rows naming them), or a count. */
export const RELATIONS: Readonly<Record<UsersResource, Readonly<Record<string, UsersResource | 'count'>>>> = {
  user: { groups: 'group', permissions: 'object_permission' },
  group: { permissions: 'object_permission', users: 'user', user_count: 'count' },
  object_permission: { users: 'user', groups: 'group' },
};

function one(base: string, ids: IdStyle, name: UsersResource, row: Row, named: Named): Json {
  const out = brief(base, ids, name, row);
  for (const f of servedFields(name)) out[f.name] = row[f.name] ?? null;
  const perms = (field: string) =>
    named.object_permission
      .filter((p) => ((p[field] as string[]) ?? []).includes(row.id))
      .map((p) => brief(base, ids, 'object_permission', p));
  if (name === 'user') {
    out.groups = briefs(base, ids, 'group', row.groups, named.group);
    out.permissions = perms('users');
  } else if (name === 'group') {
    const members = [...named.user.values()].filter((u) => ((u.groups as string[]) ?? []).includes(row.id));
    out.permissions = perms('groups');
    out.users = members.map((u) => brief(base, ids, 'user', u));
    out.user_count = members.length;
  } else {
    out.users = briefs(base, ids, 'user', row.users, named.user);
    out.groups = briefs(base, ids, 'group', row.groups, named.group);
  }
  return out;
}

/** The answers for `rows` of `name` (one read of each small table the page names). */
export async function views(
  storage: Storage,
  base: string,
  name: UsersResource,
  rows: readonly Row[],
): Promise<Json[]> {
  const byId = (list: readonly Row[]) => new Map(list.map((x) => [x.id, x]));
  const named: Named = {
    user: byId(name === 'user' ? [] : await allRows(storage, 'user')),
    group: byId(name === 'group' ? [] : await allRows(storage, 'group')),
    object_permission: name === 'object_permission' ? [] : await allRows(storage, 'object_permission'),
  };
  return rows.map((row) => one(base, storage.ids, name, row, named));
}
