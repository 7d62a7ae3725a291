// A token as answered (never its key nor its hash; the key only in the answer that creates it), and
// the options a new token of a user's may be given.
import { resource } from '../../engine/schema/registry.js';
import { idStyleOf } from '../../engine/schema/id-style.js';
import { normalizeDateTime } from '../../engine/schema/normalize.js';
import type { Row } from '../../storage/types.js';
import type { TokenOptions } from '../../app/tokens.js';
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
    display: `…${row.key_tail}`,
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
    write_enabled: row.write_enabled !== false,
  };
}

/** `description`, `expires` and `write_enabled` of a body, checked (errors added by field). */
export function tokenOptions(body: Record<string, unknown>, errors: Record<string, string[]>): TokenOptions {
  const out: { description?: string; expires?: string | null; write_enabled?: boolean } = {};
  if (body.description !== undefined)
    if (typeof body.description !== 'string' || body.description.length > 200)
      errors.description = ['Not a valid string of at most 200 characters.'];
    else out.description = body.description;
  if (body.expires !== undefined && body.expires !== null) {
    const t = typeof body.expires === 'string' ? normalizeDateTime(body.expires) : null;
    if (t === null) errors.expires = ['Not a valid date-time (YYYY-MM-DDTHH:MM:SSZ).'];
    else out.expires = t;
  }
  if (body.write_enabled !== undefined)
    if (typeof body.write_enabled !== 'boolean') errors.write_enabled = ['Must be a valid boolean.'];
    else out.write_enabled = body.write_enabled;
  return out;
}
