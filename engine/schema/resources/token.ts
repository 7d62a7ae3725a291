import type { ResourceDef } from '../types.js';
import { baseFields } from '../common-fields.js';

// API tokens: only the hash of the key is stored; the key is shown once, at creation.
export const token: ResourceDef = {
  name: 'token', app: 'users', plural: 'tokens', label: 'Token', description: 'API tokens',
  refField: 'key_tail', displayField: 'key_tail', inventory: false,
  fields: [
    ...baseFields,
    { name: 'key_hash', kind: 'string', label: 'Key hash', hidden: true, readOnly: true, unique: true, filter: false },
    { name: 'key_tail', kind: 'string', label: 'Key (last 4 characters)', readOnly: true },
    { name: 'permissions', kind: 'string_list', label: 'Permissions', default: ['*'] },
    { name: 'description', kind: 'string', label: 'Description', maxLength: 200 },
  ],
};
