// A token as answered (never its secret nor its hash; the plaintext only in the answer that creates
// it), and the options a new token of a user's may be given.
import { resource } from '../../engine/schema/registry.js';
import { idStyleOf } from '../../engine/schema/id-style.js';
import { normalizeDateTime } from '../../engine/schema/normalize.js';
import type { Row } from '../../storage/types.js';
import type { MadeToken, TokenOptions } from '../../app/tokens.js';
import { V2_PREFIX } from '../../app/token-keys.js';
import { parseNetworks } from '../../engine/net/client-address.js';
import type { AppContext } from '../context.js';
import { objectUrl } from '../serialize.js';

const tokenDef = resource('token');
const userDef = resource('user');

export async function tokenView(ctx: AppContext, base: string, row: Row): Promise<Record<string, unknown>> {
  const ids = ctx.storage.ids;
  const userId = (row.user as string | null | undefined) ?? null;
  const user = userId === null ? null : await ctx.storage.get('user', userId);
  return {
    id: idStyleOf(tokenDef, ids).toJson(row.id),
    url: objectUrl(base, tokenDef, row.id),
    display: row.key_id ? `${V2_PREFIX}${row.key_id}` : `…${row.key_tail}`,
    version: row.key_id ? 2 : 1,
    // NetBox's: a v2 token's key id (public: `Bearer nbt_<key>.<secret>`); a v1 key is never answered again.
    ...(row.key_id ? { key: row.key_id } : {}),
    pepper_id: row.pepper_id ?? null,
    user: user && {
      id: idStyleOf(userDef, ids).toJson(user.id),
      url: objectUrl(base, userDef, user.id),
      display: user.username,
      username: user.username,
    },
    key_tail: row.key_tail,
    permissions: row.permissions,
    description: row.description,
    created: row.created,
    expires: row.expires ?? null,
    last_used: row.last_used ?? null,
    enabled: row.enabled !== false,
    write_enabled: row.write_enabled !== false,
    allowed_ips: row.allowed_ips ?? [],
  };
}

/** The fields of the answer that creates a token: the plaintext, once (v1: `key` too, as before v2). */
export function madeView(view: Record<string, unknown>, made: MadeToken): Record<string, unknown> {
  return made.row.key_id ? { ...view, token: made.secret } : { ...view, key: made.key, token: made.secret };
}

/** The options of a new token in a body, checked (errors added by field). */
/** What a new token may be made with besides whom it is for (tokenOptions reads them): a create's and a provision's. */
export const TOKEN_OPTIONS = ['description', 'expires', 'write_enabled', 'allowed_ips', 'enabled', 'version'];

export function tokenOptions(
  body: Record<string, unknown>,
  errors: Record<string, string[]>,
  peppersSet: boolean,
): TokenOptions {
  const out: { -readonly [K in keyof TokenOptions]: TokenOptions[K] } = {};
  if (body.description !== undefined)
    if (typeof body.description !== 'string' || body.description.length > 200)
      errors.description = ['Not a valid string of at most 200 characters.'];
    else out.description = body.description;
  if (body.expires !== undefined && body.expires !== null) {
    const t = typeof body.expires === 'string' ? normalizeDateTime(body.expires) : null;
    if (t === null) errors.expires = ['Not a valid date-time (YYYY-MM-DDTHH:MM:SSZ).'];
    else if (Date.parse(t) <= Date.now()) errors.expires = ['Expiration time must be in the future.'];
    else out.expires = t;
  }
  if (body.write_enabled !== undefined)
    if (typeof body.write_enabled !== 'boolean') errors.write_enabled = ['Must be a valid boolean.'];
    else out.write_enabled = body.write_enabled;
  if (body.enabled !== undefined)
    if (typeof body.enabled !== 'boolean') errors.enabled = ['Must be a valid boolean.'];
    else out.enabled = body.enabled;
  const ips = allowedIps(body.allowed_ips, errors);
  if (ips) out.allowed_ips = ips;
  if (body.version !== undefined)
    if (body.version !== 1 && body.version !== 2) errors.version = ['Expected 1 or 2.'];
    else if (body.version === 2 && !peppersSet)
      errors.version = ['Version 2 tokens need a pepper: API_TOKEN_PEPPERS is not set.'];
    else out.version = body.version;
  return out;
}

/** allowed_ips of a body as normalized CIDR text (null or absent: none given). */
export function allowedIps(v: unknown, errors: Record<string, string[]>): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) return void (errors.allowed_ips = ['Expected a list of IPv4 or IPv6 networks.']);
  try {
    return parseNetworks(v).texts;
  } catch (e) {
    errors.allowed_ips = [(e as Error).message];
    return undefined;
  }
}
