import type { ResourceDef } from '../types.js';
import type { RowOf } from '../row-types.js';
import { baseFields, rowVersionField } from '../common-fields.js';

// Users, groups and object permissions, as NetBox's users app has them. Served by their own routes
// (server/routes/users.ts), not the inventory's. Lists of ids (a user's groups, a permission's users
// and groups) are stored as lists of id text and written only through those routes.

/** A list written only through the users routes (ids, content types, actions): not a filter. */
const routeList = <N extends string, L extends string>(name: N, label: L) =>
  ({ name, kind: 'string_list', label, readOnly: true, default: [], filter: false }) as const;

export const user = {
  name: 'user',
  app: 'users',
  plural: 'users',
  label: 'User',
  description: 'People and services that sign in and own tokens',
  refField: 'username',
  displayField: 'username',
  inventory: false,
  defaultOrder: [{ field: 'username', desc: false }],
  fields: [
    ...baseFields,
    // Compare-and-swap on password changes: two changes at once never both acknowledge.
    rowVersionField,
    {
      name: 'username',
      kind: 'string',
      label: 'Username',
      required: true,
      unique: true,
      maxLength: 150,
      pattern: '^[\\w.@+-]+$',
      search: true,
    },
    // The scrypt hash (app/passwords.ts), never the password: hidden, so never served nor in a change record.
    { name: 'password', kind: 'string', label: 'Password hash', hidden: true, readOnly: true, filter: false },
    { name: 'first_name', kind: 'string', label: 'First name', maxLength: 150, default: '', search: true },
    { name: 'last_name', kind: 'string', label: 'Last name', maxLength: 150, default: '', search: true },
    { name: 'email', kind: 'string', label: 'Email address', maxLength: 254, default: '', search: true },
    { name: 'is_active', kind: 'boolean', label: 'Active', default: true },
    { name: 'is_staff', kind: 'boolean', label: 'Staff status', default: false },
    { name: 'is_superuser', kind: 'boolean', label: 'Superuser status', default: false },
    { name: 'date_joined', kind: 'datetime', label: 'Date joined', readOnly: true },
    { name: 'last_login', kind: 'datetime', label: 'Last login', readOnly: true, nullable: true },
    routeList('groups', 'Groups'),
  ],
} as const satisfies ResourceDef;

export const group = {
  name: 'group',
  app: 'users',
  plural: 'groups',
  label: 'Group',
  description: 'Sets of users that object permissions are granted to together',
  refField: 'name',
  displayField: 'name',
  inventory: false,
  defaultOrder: [{ field: 'name', desc: false }],
  fields: [
    ...baseFields,
    rowVersionField,
    { name: 'name', kind: 'string', label: 'Name', required: true, unique: true, maxLength: 150, search: true },
    { name: 'description', kind: 'string', label: 'Description', maxLength: 200, default: '' },
  ],
} as const satisfies ResourceDef;

export const objectPermission = {
  name: 'object_permission',
  app: 'users',
  plural: 'permissions',
  label: 'Permission',
  description: 'Actions on object types granted to users and groups, optionally constrained',
  refField: 'name',
  displayField: 'name',
  inventory: false,
  defaultOrder: [{ field: 'name', desc: false }],
  fields: [
    ...baseFields,
    rowVersionField,
    { name: 'name', kind: 'string', label: 'Name', required: true, maxLength: 100, search: true },
    { name: 'description', kind: 'string', label: 'Description', maxLength: 200, default: '' },
    { name: 'enabled', kind: 'boolean', label: 'Enabled', default: true },
    // "app.model" content types, checked against the registry by the routes.
    routeList('object_types', 'Object types'),
    // view, add, change, delete, or any custom action.
    routeList('actions', 'Actions'),
    // NetBox's constraint JSON as given: an object, a list of objects, or null (unconstrained).
    { name: 'constraints', kind: 'json', label: 'Constraints', nullable: true, default: null, filter: false },
    routeList('users', 'Users'),
    routeList('groups', 'Groups'),
  ],
} as const satisfies ResourceDef;

export type UserRow = RowOf<typeof user>;
export type GroupRow = RowOf<typeof group>;
export type ObjectPermissionRow = RowOf<typeof objectPermission>;
