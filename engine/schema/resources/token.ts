import type { ResourceDef } from '../types.js';
import type { RowOf } from '../row-types.js';
import { baseFields } from '../common-fields.js';

// API tokens: only the hash of the key is stored; the key is shown once, at creation.
export const token = {
  name: 'token',
  app: 'users',
  plural: 'tokens',
  label: 'Token',
  description: 'API tokens',
  refField: 'key_tail',
  displayField: 'key_tail',
  inventory: false,
  // Listed oldest first. key_hash is hidden and has no filter: neither a filter nor an ordering
  // term can name it (an unknown filter is a 400, an unknown ordering term is dropped, as on every list).
  defaultOrder: [{ field: 'created', desc: false }],
  fields: [
    ...baseFields,
    { name: 'key_hash', kind: 'string', label: 'Key hash', hidden: true, readOnly: true, unique: true, filter: false },
    { name: 'key_tail', kind: 'string', label: 'Key (last 4 characters)', readOnly: true },
    { name: 'permissions', kind: 'string_list', label: 'Permissions', default: ['*'] },
    { name: 'description', kind: 'string', label: 'Description', maxLength: 200 },
    // Whose token it is: its rights are the user's (app/principal.ts). Null only on a token of an
    // earlier release not yet given a user (app/legacy-tokens.ts gives it one at start).
    { name: 'user', kind: 'fk', label: 'User', target: 'user', nullable: true, onDelete: 'cascade' },
    // After this time the token is refused (401); null: never.
    { name: 'expires', kind: 'datetime', label: 'Expires', nullable: true },
    // false: the token may only read (its user's view permissions); null (a token of an earlier release): true.
    { name: 'write_enabled', kind: 'boolean', label: 'Write enabled', nullable: true, default: true },
  ],
} as const satisfies ResourceDef;

export type TokenRow = RowOf<typeof token>;
