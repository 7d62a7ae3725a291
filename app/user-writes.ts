// Writes of users, groups and object permissions (NetBox's users app): a body checked against the
// registry, the row it makes, and the other rows a delete changes (ids lists naming it). Passwords
// are hashed here (app/passwords.ts); the clear text goes no further.
import { MSG } from '../engine/schema/messages.js';
import { objectTypeOf } from '../engine/schema/model-permissions.js';
import { resource } from '../engine/schema/registry.js';
import type { IdStyle } from '../engine/schema/id-style.js';
import { validateInput, type FieldErrors } from '../engine/schema/validate-input.js';
import { versionOf, type Row, type Storage, type WriteOp } from '../storage/types.js';
import { constraintProblems } from './constraint-check.js';
import { hashPassword } from './passwords.js';
import { allRows } from './principal.js';

export type UsersResource = 'user' | 'group' | 'object_permission';

/** Fields answers carry that a write may send back and that are not written (NetBox's computed ones). */
export const SERVED_ONLY: Readonly<Record<UsersResource, readonly string[]>> = {
  user: ['id', 'url', 'display', 'display_url', 'permissions', 'date_joined', 'last_login'],
  group: ['id', 'url', 'display', 'display_url', 'permissions', 'users', 'user_count'],
  object_permission: ['id', 'url', 'display', 'display_url'],
};

/** Id lists a write may give (by id, id text, or a nested object with `id`), and whose ids they are. */
export const ID_LISTS: Readonly<Record<UsersResource, Readonly<Record<string, string>>>> = {
  user: { groups: 'group' },
  group: {},
  object_permission: { users: 'user', groups: 'group' },
};

// scrypt's input is bounded: a megabyte password would cost the server, not the client.
export const MAX_PASSWORD = 1024;

/** Fields the routes check and write themselves (not validateInput): lists of strings and the password. */
export const ROUTE_WRITTEN = ['password', 'object_types', 'actions'] as const;
/** Of them, those a create (POST) must give. */
export const REQUIRED_ON_CREATE: Readonly<Record<UsersResource, readonly string[]>> = {
  user: [],
  group: [],
  object_permission: ['object_types', 'actions'],
};

export type Checked = { readonly ok: true; readonly row: Row } | { readonly ok: false; readonly errors: FieldErrors };

function add(errors: FieldErrors, field: string, msg: string): void {
  (errors[field] ??= []).push(msg);
}

async function idList(
  storage: Storage,
  v: unknown,
  field: string,
  target: string,
  ids: IdStyle,
  errors: FieldErrors,
): Promise<string[] | null> {
  if (!Array.isArray(v)) return (add(errors, field, MSG.list), null);
  const out: string[] = [];
  for (const x of v) {
    const raw = typeof x === 'object' && x !== null && 'id' in x ? (x as { id: unknown }).id : x;
    const id = ids.fromJson(raw);
    if (id === null) return (add(errors, field, `Incorrect type. Expected pk value, received ${typeof raw}.`), null);
    if (!out.includes(id)) out.push(id);
  }
  const found = new Set((await storage.getMany(target, out)).map((r) => r.id));
  const missing = out.filter((id) => !found.has(id));
  if (missing.length) return (add(errors, field, `Invalid pk "${missing[0]}" - object does not exist.`), null);
  return out;
}

/** `known`: what each item stands for (null: nothing known), as object types are read in either spelling. */
function stringList(
  v: unknown,
  field: string,
  errors: FieldErrors,
  known?: (x: string) => string | null,
): string[] | null {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && x !== ''))
    return (add(errors, field, 'Expected a list of non-empty strings.'), null);
  const items = known ? v.map((x: string) => known(x)) : (v as string[]);
  const unknown = v.filter((_, i) => items[i] === null);
  if (unknown.length) return (add(errors, field, `Unknown object type: ${unknown[0]} (expected "app.model").`), null);
  return [...new Set(items as string[])];
}

export interface WriteRequest {
  readonly storage: Storage;
  readonly body: unknown;
  /** The stored row on an update, null on a create. */
  readonly existing: Row | null;
  readonly partial: boolean;
  /** Whether the writer holds every permission (`*`): only such a writer makes superusers or staff. */
  readonly superuser: boolean;
}

/** The row a write makes, or the 400's errors by field. */
export async function checkedRow(name: UsersResource, w: WriteRequest): Promise<Checked> {
  const r = resource(name);
  if (typeof w.body !== 'object' || w.body === null || Array.isArray(w.body))
    return validateInput(r, w.body, { partial: w.partial, creating: !w.existing, customFields: [] }) as Checked;
  const body = { ...(w.body as Record<string, unknown>) };
  const special: Record<string, unknown> = {};
  for (const k of [...ROUTE_WRITTEN, ...Object.keys(ID_LISTS[name])])
    if (k in body && r.fields.some((f) => f.name === k)) [special[k]] = [body[k], delete body[k]];
  for (const k of SERVED_ONLY[name]) delete body[k];
  const v = validateInput(r, body, {
    partial: w.partial,
    creating: !w.existing,
    customFields: [],
    existing: w.existing ?? undefined,
    ids: w.storage.ids,
  });
  const errors: FieldErrors = v.ok ? Object.create(null) : { ...v.errors };
  const values: Record<string, unknown> = v.ok ? { ...v.input.values } : {};
  for (const [field, target] of Object.entries(ID_LISTS[name]))
    if (field in special) values[field] = await idList(w.storage, special[field], field, target, w.storage.ids, errors);
  await specialFields(name, special, values, errors, w);
  if (!w.superuser)
    for (const f of ['is_superuser', 'is_staff'])
      if (values[f] === true && w.existing?.[f] !== true) add(errors, f, 'Only a superuser may grant this.');
  if (Object.keys(errors).length) return { ok: false, errors };
  const now = new Date().toISOString();
  const row: Row = w.existing
    ? { ...w.existing, ...values, last_updated: now, version: versionOf(w.existing) + 1 }
    : { ...defaults(name, now), ...values, id: '' };
  if (name === 'object_permission') {
    const p = await constraintProblems(w.storage, row.object_types as string[], row.constraints);
    if (p.length) return { ok: false, errors: { constraints: p } };
  }
  return { ok: true, row };
}

async function specialFields(
  name: UsersResource,
  special: Record<string, unknown>,
  values: Record<string, unknown>,
  errors: FieldErrors,
  w: WriteRequest,
): Promise<void> {
  if (name === 'object_permission') {
    if ('object_types' in special)
      values.object_types = stringList(special.object_types, 'object_types', errors, objectTypeOf);
    if ('actions' in special) values.actions = stringList(special.actions, 'actions', errors);
  }
  if (!w.existing && !w.partial)
    for (const f of REQUIRED_ON_CREATE[name]) if (!(f in special)) add(errors, f, MSG.required);
  if (name === 'user' && 'password' in special) {
    const p = special.password;
    if (typeof p !== 'string' || p === '' || p.length > MAX_PASSWORD)
      add(errors, 'password', `Enter a password of 1 to ${MAX_PASSWORD} characters.`);
    else if (!Object.keys(errors).length) values.password = await hashPassword(p);
  }
}

function defaults(name: UsersResource, now: string): Row {
  const base = { id: '', created: now, last_updated: now, version: 1 };
  if (name === 'user') return { ...base, password: null, date_joined: now, last_login: null, groups: [] };
  if (name === 'object_permission') return { ...base, object_types: [], actions: [], users: [], groups: [] };
  return base;
}

/** Rows naming `id` in an ids list `field`, as updates without it (checked against the versions read). */
async function withoutId(storage: Storage, resource: string, field: string, id: string): Promise<WriteOp[]> {
  const now = new Date().toISOString();
  return (await allRows(storage, resource))
    .filter((x) => ((x[field] as string[]) ?? []).includes(id))
    .map((x) => ({
      op: 'update',
      resource,
      row: {
        ...x,
        [field]: (x[field] as string[]).filter((g) => g !== id),
        last_updated: now,
        version: versionOf(x) + 1,
      },
      before: x,
      expectVersion: versionOf(x),
    }));
}

/** The writes deleting `row`: a user's tokens go with it; lists naming it are changed first. */
export async function deleteOps(storage: Storage, name: UsersResource, row: Row): Promise<WriteOp[]> {
  const ops: WriteOp[] = [];
  if (name === 'user') {
    ops.push(...(await withoutId(storage, 'object_permission', 'users', row.id)));
    for (const t of await storage.findBy('token', 'user', row.id))
      ops.push({ op: 'delete', resource: 'token', id: t.id, before: t });
  }
  if (name === 'group') {
    ops.push(...(await withoutId(storage, 'user', 'groups', row.id)));
    ops.push(...(await withoutId(storage, 'object_permission', 'groups', row.id)));
  }
  ops.push({ op: 'delete', resource: name, id: row.id, before: row, expectVersion: versionOf(row) });
  return ops;
}
