import type { ResourceDef } from '../types.js';
import type { RowOf } from '../row-types.js';
import { baseFields, rowVersionField } from '../common-fields.js';

// API tokens: only a hash of the key is stored; the key is shown once, at creation. Two forms, as
// NetBox 4.5 has them: v1 (a 40-character key, stored as its SHA-256) and v2 (`nbt_<key_id>.<secret>`,
// stored as the key id, the id of the pepper and the HMAC-SHA256 of the secret under that pepper).
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
    // Compare-and-swap: the once-a-minute last_used write never undoes a change made meanwhile.
    rowVersionField,
    // v1: SHA-256 of the key; v2: HMAC-SHA256 of the secret with the pepper `pepper_id`.
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
    // v2 only (null on v1): the public part of the key, `nbt_<key_id>.`, found by it; and which pepper hashed it.
    { name: 'key_id', kind: 'string', label: 'Key', nullable: true, readOnly: true, indexed: true, filter: false },
    { name: 'pepper_id', kind: 'integer', label: 'Pepper ID', nullable: true, readOnly: true, filter: false },
    // CIDRs the token may be used from (app/client-address.ts); empty: anywhere.
    { name: 'allowed_ips', kind: 'string_list', label: 'Allowed IPs', nullable: true, default: [], filter: false },
    // false: refused (401) until enabled again.
    { name: 'enabled', kind: 'boolean', label: 'Enabled', nullable: true, default: true },
    // Written at most once a minute per token and process, without a change record.
    { name: 'last_used', kind: 'datetime', label: 'Last used', nullable: true, readOnly: true },
  ],
} as const satisfies ResourceDef;

export type TokenRow = RowOf<typeof token>;
