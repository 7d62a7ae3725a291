// Component schemas of tokens (`/api/users/tokens/`, its `{id}/` and `provision/`), derived from the
// registry's token fields and the field tables of the token routes. The key hash and the row version
// are hidden: never in an answer's schema.
import type { IdStyle } from '../../engine/schema/id-style.js';
import { resource } from '../../engine/schema/registry.js';
import type { FieldDef } from '../../engine/schema/types.js';
import { TOKEN_FIELDS } from '../routes/tokens.js';
import { CHANGEABLE, FIXED, SERVED } from '../routes/token-change.js';
import { PROVISION_FIELDS } from '../routes/provision.js';
import { readSchema } from './field-schemas.js';
import { idSchema, INTEGER_ID_WRITTEN, UUID_PATTERN } from './id-schemas.js';
import { idUrlDisplay } from './inventory-schemas.js';
import { orNull, type JsonSchema } from './types.js';

/** How token-view.ts answers the registry's visible fields: left out, or renamed (v2 tokens only). */
const NOT_SERVED = new Set(['id', 'last_updated', 'key_id']);
/** Served as `row.x !== false` / `?? []`: null only on tokens of an earlier release, never in an answer. */
const NEVER_NULL = new Set(['write_enabled', 'enabled', 'allowed_ips']);
/** Written as null to mean "never expires" / "from anywhere"; the other fields refuse null. */
const WRITE_NULL = new Set(['expires', 'allowed_ips']);

const FORM: JsonSchema = {
  type: 'integer',
  enum: [1, 2],
  description:
    '1: `Authorization: Token <key>`; 2: `Authorization: Bearer nbt_<key>.<token>` (needs API_TOKEN_PEPPERS)',
};
const PERMISSIONS: JsonSchema = {
  type: 'array',
  items: { type: 'string', pattern: '^(\\*|[a-z]+\\.(view|add|change|delete)_[a-z]+)$' },
  examples: [['*'], ['dcim.view_site', 'lifecycle.add_entity']],
};

const tokenField = (name: string): FieldDef => resource('token').fields.find((f) => f.name === name)!;

function tokenRead(ids: IdStyle): JsonSchema {
  const props: Record<string, JsonSchema> = { ...idUrlDisplay('token', ids), version: { ...FORM, readOnly: true } };
  for (const f of resource('token').fields)
    if (!f.hidden && !NOT_SERVED.has(f.name))
      props[f.name] = readSchema(NEVER_NULL.has(f.name) ? { ...f, nullable: false } : f, ids);
  const required = Object.keys(props);
  props.key = {
    ...readSchema({ ...tokenField('key_id'), nullable: false }, ids),
    description: 'v2 only: the public key id (`Bearer nbt_<key>.<token>`); a v1 key is never answered again',
  };
  return { type: 'object', title: 'Token', description: resource('token').description, required, properties: props };
}

/** A field of a create body, as token-view.ts's tokenOptions() and tokens.ts check it (strict JSON types). */
function tokenWrite(name: string, ids: IdStyle): JsonSchema {
  if (name === 'version') return { ...FORM, description: `${FORM.description}; default: 2 when a pepper is set` };
  if (name === 'permissions')
    return {
      ...PERMISSIONS,
      description: 'the old form (not with `user`): a user of its own holds these; default `["*"]`',
    };
  const f = tokenField(name);
  const value = ((): JsonSchema => {
    switch (f.kind) {
      case 'fk': {
        const id = idSchema(
          f.target!,
          ids,
          { type: 'string', format: 'uuid', pattern: UUID_PATTERN },
          INTEGER_ID_WRITTEN,
        );
        return { anyOf: [id, { type: 'object', required: ['id'], properties: { id } }] };
      }
      case 'boolean':
        return { type: 'boolean' };
      case 'datetime':
        return { type: 'string', format: 'date-time' };
      case 'string_list':
        return { type: 'array', items: { type: 'string' }, description: 'IPv4 or IPv6 networks (CIDR)' };
      default:
        return { type: 'string', ...(f.maxLength ? { maxLength: f.maxLength } : {}) };
    }
  })();
  return { title: f.label, ...(WRITE_NULL.has(name) ? orNull(value) : value) };
}

const pick = (names: readonly string[], ids: IdStyle) =>
  Object.fromEntries(names.filter((n) => n !== 'username' && n !== 'password').map((n) => [n, tokenWrite(n, ids)]));

export function tokenSchemas(ids: IdStyle): Record<string, JsonSchema> {
  const token = tokenRead(ids);
  const secret: JsonSchema = {
    type: 'string',
    description: 'the secret, shown only in this answer (v2: `Bearer nbt_<key>.<token>`)',
  };
  const ignored = { readOnly: true, description: 'served: ignored when written' };
  const fixed = { description: 'accepted only as the token has it: any other value is a 400 naming the field' };
  return {
    Token: token,
    TokenCreated: {
      ...token,
      title: 'Token (created)',
      required: [...(token.required as string[]), 'key', 'token'],
      properties: {
        ...(token.properties as object),
        key: { type: 'string', description: 'v1: the whole key (`Token <key>`), shown only here; v2: the key id' },
        token: secret,
      },
    },
    TokenWrite: {
      type: 'object',
      title: 'Token (create)',
      description:
        'Either `user` (the new form) or `permissions` (the old form); expires, write_enabled, ' +
        'allowed_ips, enabled and version only with `user`.',
      properties: pick(TOKEN_FIELDS, ids),
      additionalProperties: false,
    },
    TokenChange: {
      type: 'object',
      title: 'Token (change)',
      properties: {
        ...Object.fromEntries(SERVED.map((n) => [n, ignored])),
        ...Object.fromEntries(FIXED.map((n) => [n, fixed])),
        ...pick(CHANGEABLE, ids),
        expires: { ...tokenWrite('expires', ids), description: 'only earlier than it is (or null when it is null)' },
      },
      additionalProperties: false,
    },
    TokenProvision: {
      type: 'object',
      title: 'Token (provision)',
      required: ['username', 'password'],
      properties: {
        username: { type: 'string', minLength: 1 },
        password: { type: 'string', minLength: 1, writeOnly: true },
        ...pick(PROVISION_FIELDS, ids),
      },
      additionalProperties: false,
    },
  };
}
