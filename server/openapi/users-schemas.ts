// Component schemas of users, groups and object permissions (server/routes/users.ts), derived from the
// registry and the tables their answers (users-views.ts) and writes (app/user-writes.ts) are built
// from. Hidden fields (the password hash, the row version) are never in an answer's schema; the
// password is a write-only field of the user's write schemas.
import { OBJECT_TYPES } from '../../engine/schema/model-permissions.js';
import { resource } from '../../engine/schema/registry.js';
import type { IdStyle } from '../../engine/schema/id-style.js';
import type { FieldDef } from '../../engine/schema/types.js';
import {
  ID_LISTS,
  MAX_PASSWORD,
  REQUIRED_ON_CREATE,
  ROUTE_WRITTEN,
  SERVED_ONLY,
  type UsersResource,
} from '../../app/user-writes.js';
import { BRIEF, RELATIONS, servedFields } from '../routes/users-views.js';
import { readSchema, writeSchema } from './field-schemas.js';
import { idSchema, INTEGER_ID_WRITTEN, UUID_PATTERN } from './id-schemas.js';
import { idUrlDisplay } from './inventory-schemas.js';
import { pascal, ref, type JsonSchema } from './types.js';

export const USERS_RESOURCES: readonly UsersResource[] = ['user', 'group', 'object_permission'];

export const usersSchemaNames = (name: UsersResource) => {
  const base = pascal(name);
  return {
    read: base,
    create: `${base}Write`,
    replace: `${base}Replace`,
    patch: `${base}Patch`,
    nested: `Nested${base}`,
  };
};

const fieldOf = (name: UsersResource, field: string): FieldDef => resource(name).fields.find((f) => f.name === field)!;

/** A brief user, group or permission, as users-views.ts nests them. */
function nested(name: UsersResource, ids: IdStyle): JsonSchema {
  const props = idUrlDisplay(name, ids);
  for (const f of BRIEF[name]) props[f] = readSchema(fieldOf(name, f), ids);
  return { type: 'object', title: `${resource(name).label} (nested)`, required: Object.keys(props), properties: props };
}

function read(name: UsersResource, ids: IdStyle): JsonSchema {
  const r = resource(name);
  const props = idUrlDisplay(name, ids);
  for (const f of servedFields(name))
    props[f.name] = readSchema({ ...f, readOnly: f.readOnly && !isRouteWritten(f) }, ids);
  for (const [k, target] of Object.entries(RELATIONS[name]))
    props[k] =
      target === 'count'
        ? { type: 'integer', minimum: 0, readOnly: true }
        : {
            type: 'array',
            items: ref(usersSchemaNames(target).nested),
            ...(k in ID_LISTS[name] ? {} : { readOnly: true }),
          };
  return {
    type: 'object',
    title: r.label,
    description: r.description,
    required: Object.keys(props),
    properties: props,
  };
}

const isRouteWritten = (f: FieldDef) => (ROUTE_WRITTEN as readonly string[]).includes(f.name);

/** A field the users routes check themselves (app/user-writes.ts): id lists, string lists, the password. */
function routeWrite(name: UsersResource, f: FieldDef, ids: IdStyle): JsonSchema | null {
  const target = ID_LISTS[name][f.name];
  if (target) {
    const id = idSchema(target, ids, { type: 'string', format: 'uuid', pattern: UUID_PATTERN }, INTEGER_ID_WRITTEN);
    return {
      title: f.label,
      type: 'array',
      description: `${target} ids (or objects with \`id\`)`,
      items: { anyOf: [id, { type: 'object', required: ['id'], properties: { id } }] },
    };
  }
  if (!isRouteWritten(f)) return null;
  if (f.name === 'password')
    return {
      title: 'Password',
      type: 'string',
      minLength: 1,
      maxLength: MAX_PASSWORD,
      writeOnly: true,
      description: 'Password (write-only: stored as a scrypt hash, never read back)',
    };
  const known = f.name === 'object_types' ? { enum: [...OBJECT_TYPES].sort() } : {};
  return { title: f.label, type: 'array', items: { type: 'string', minLength: 1, ...known } };
}

type Mode = 'create' | 'replace' | 'patch';

/** What checkedRow() accepts: unknown keys refused, served-only keys ignored. */
function write(name: UsersResource, mode: Mode, ids: IdStyle): JsonSchema {
  const r = resource(name);
  const props: Record<string, JsonSchema> = {};
  for (const k of SERVED_ONLY[name]) props[k] = { readOnly: true, description: 'served: ignored when written' };
  for (const f of r.fields) props[f.name] = routeWrite(name, f, ids) ?? writeSchema(f, ids);
  const required =
    mode === 'patch'
      ? []
      : [
          ...r.fields.filter((f) => f.required && !f.readOnly).map((f) => f.name),
          ...(mode === 'create' ? REQUIRED_ON_CREATE[name] : []),
        ];
  return {
    type: 'object',
    title: `${r.label} (${mode === 'patch' ? 'partial update' : mode})`,
    description: r.description,
    ...(required.length ? { required } : {}),
    properties: props,
    additionalProperties: false,
  };
}

export function usersSchemas(ids: IdStyle): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const name of USERS_RESOURCES) {
    const n = usersSchemaNames(name);
    out[n.read] = read(name, ids);
    out[n.nested] = nested(name, ids);
    out[n.create] = write(name, 'create', ids);
    out[n.replace] = write(name, 'replace', ids);
    out[n.patch] = write(name, 'patch', ids);
  }
  return out;
}
