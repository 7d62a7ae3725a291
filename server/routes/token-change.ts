// PATCH / PUT of a token. What makes a token's rights is fixed once it exists (NetBox #22820 let a
// PATCH widen them): its user, write_enabled, allowed_ips and key are answered back unchanged or the
// change is a 400 naming the field; description and enabled may change; expires only to an earlier
// time (a token can be cut short, never lengthened). Compare-and-swapped on the row's version.
import type { Request, RequestHandler, Response } from 'express';
import { resource } from '../../engine/schema/registry.js';
import { idStyleOf } from '../../engine/schema/id-style.js';
import { normalizeDateTime } from '../../engine/schema/normalize.js';
import { StorageConflict, versionOf, type Row } from '../../storage/types.js';
import { authority } from '../../storage/replica/replicated-storage.js';
import type { AppContext } from '../context.js';
import { allowedIps, tokenView } from './token-view.js';
import { baseUrl } from './request-url.js';

const tokenDef = resource('token');
const FIXED = 'This field cannot be changed once the token exists.';
/** Served fields a client may send back as they are; not written. */
const SERVED = ['id', 'url', 'display_url', 'display', 'created', 'last_used', 'key_tail', 'token'];

type Errors = Record<string, string[]>;

/** The stored value of each fixed field, as a body would give it (compared after normalizing). */
function fixedValues(ctx: AppContext, row: Row, body: Record<string, unknown>, errors: Errors): void {
  const userStyle = idStyleOf(resource('user'), ctx.storage.ids);
  const given = body.user;
  if (given !== undefined) {
    const raw = typeof given === 'object' && given !== null && 'id' in given ? (given as { id: unknown }).id : given;
    if (userStyle.fromJson(raw) !== row.user) errors.user = [FIXED];
  }
  if (body.write_enabled !== undefined && body.write_enabled !== (row.write_enabled !== false))
    errors.write_enabled = [FIXED];
  if (body.allowed_ips !== undefined) {
    const sub: Errors = {};
    const ips = allowedIps(body.allowed_ips, sub) ?? (body.allowed_ips === null ? [] : undefined);
    if (sub.allowed_ips) errors.allowed_ips = sub.allowed_ips;
    else if (JSON.stringify(ips) !== JSON.stringify(row.allowed_ips ?? [])) errors.allowed_ips = [FIXED];
  }
  const same: Record<string, unknown> = {
    key: row.key_id ?? null,
    version: row.key_id ? 2 : 1,
    pepper_id: row.pepper_id ?? null,
    permissions: row.permissions,
  };
  for (const [f, v] of Object.entries(same))
    if (body[f] !== undefined && JSON.stringify(body[f]) !== JSON.stringify(v)) errors[f] = [FIXED];
}

/** The row a change makes, or the 400's errors by field. */
function changed(
  ctx: AppContext,
  row: Row,
  body: Record<string, unknown>,
  partial: boolean,
): { ok: true; row: Row } | { ok: false; errors: Errors } {
  const errors: Errors = Object.create(null);
  const known = new Set([...SERVED, 'user', 'write_enabled', 'allowed_ips', 'key', 'version', 'pepper_id']);
  for (const k of ['permissions', 'description', 'enabled', 'expires']) known.add(k);
  for (const k of Object.keys(body)) if (!known.has(k)) errors[k] = ['Unknown field.'];
  fixedValues(ctx, row, body, errors);
  const next: Row = { ...row };
  if (body.description !== undefined || !partial)
    if (typeof (body.description ?? '') !== 'string' || String(body.description ?? '').length > 200)
      errors.description = ['Not a valid string of at most 200 characters.'];
    else next.description = body.description ?? '';
  if (body.enabled !== undefined)
    if (typeof body.enabled !== 'boolean') errors.enabled = ['Must be a valid boolean.'];
    else next.enabled = body.enabled;
  if (body.expires !== undefined || !partial) {
    const v = body.expires ?? null;
    const t = v === null ? null : typeof v === 'string' ? normalizeDateTime(v) : undefined;
    const was = typeof row.expires === 'string' ? Date.parse(row.expires) : Infinity;
    if (t === undefined || (v !== null && t === null))
      errors.expires = ['Not a valid date-time (YYYY-MM-DDTHH:MM:SSZ).'];
    else if ((t === null ? Infinity : Date.parse(t)) > was)
      errors.expires = ['A token may only be made to expire earlier, never later.'];
    else next.expires = t;
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, row: { ...next, last_updated: new Date().toISOString(), version: versionOf(row) + 1 } };
}

export function tokenChange(ctx: AppContext, partial: boolean): RequestHandler {
  return async (req: Request, res: Response) => {
    const body = req.body as unknown;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return void res.status(400).json({ non_field_errors: ['Expected a dictionary.'] });
    const id = idStyleOf(tokenDef, ctx.storage.ids).parse(String(req.params.id));
    for (let tries = 0; ; tries++) {
      const row = id === null ? null : await authority(ctx.storage).get('token', id);
      if (!row) return void res.status(404).json({ detail: 'Not found.' });
      const got = changed(ctx, row, body as Record<string, unknown>, partial);
      if (!got.ok) return void res.status(400).json(got.errors);
      const next = got.row;
      try {
        await authority(ctx.storage).apply([
          { op: 'update', resource: 'token', row: next, before: row, expectVersion: versionOf(row) },
        ]);
        return void res.json(await tokenView(ctx, baseUrl(req), next));
      } catch (e) {
        // Another write (a change, or the last_used note) came between: read again.
        if (!(e instanceof StorageConflict && e.field === 'version') || tries >= 8) throw e;
      }
    }
  };
}
