// /api/users/tokens/: list, create (the key is shown once), read, revoke.
import { Router } from 'express';
import { resource } from '../../engine/schema/registry.js';
import { allows } from '../../app/tokens.js';
import { authenticate, permissionFor, requirePermission } from '../auth.js';
import type { AppContext } from '../context.js';
import { objectUrl } from '../serialize.js';
import type { Row } from '../../storage/types.js';
import { envelope, planRequest } from './inventory.js';
import { baseUrl } from './request-url.js';
import { idStyleOf, type IdStyle } from '../../engine/schema/id-style.js';

const tokenDef = resource('token');

function view(base: string, row: Row, ids: IdStyle): Record<string, unknown> {
  return {
    id: idStyleOf(tokenDef, ids).toJson(row.id),
    url: objectUrl(base, tokenDef, row.id),
    display: `…${row.key_tail}`,
    key_tail: row.key_tail,
    permissions: row.permissions,
    description: row.description,
    created: row.created,
  };
}

export function tokensRouter(ctx: AppContext): Router {
  const router = Router();
  router.use(authenticate(ctx.tokens));
  router.get('/', requirePermission(permissionFor(tokenDef, 'view')), async (req, res) => {
    // Filters and ordering as on every list: an unknown filter (key_hash among them) is a 400.
    const got = await planRequest(ctx, tokenDef, req, res, []);
    if (!got) return;
    const found = await ctx.storage.find('token', got.planned.plan, got.page);
    res.json(
      envelope(
        req,
        got.page,
        found.count,
        found.rows.map((r) => view(baseUrl(req), r, ctx.storage.ids)),
      ),
    );
  });
  router.post('/', requirePermission(permissionFor(tokenDef, 'add')), async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const errors: Record<string, string[]> = Object.create(null);
    for (const k of Object.keys(body)) if (!['permissions', 'description'].includes(k)) errors[k] = ['Unknown field.'];
    const perms = body.permissions ?? ['*'];
    if (
      !Array.isArray(perms) ||
      !perms.every((p) => typeof p === 'string' && /^(\*|[a-z]+\.(view|add|change|delete)_[a-z]+)$/.test(p))
    )
      errors.permissions = ['Expected a list of permissions such as "*" or "dcim.view_site".'];
    else if (!perms.every((p) => allows(req.principal!, p as string)))
      errors.permissions = ['A token cannot grant permissions its creator does not have.'];
    if (body.description !== undefined && typeof body.description !== 'string')
      errors.description = ['Not a valid string.'];
    if (Object.keys(errors).length) {
      res.status(400).json(errors);
      return;
    }
    const { key, row } = await ctx.tokens.create(perms as string[], (body.description as string) ?? '');
    res.status(201).json({ ...view(baseUrl(req), row, ctx.storage.ids), key });
  });
  const byId = async (text: string) => {
    const id = idStyleOf(tokenDef, ctx.storage.ids).parse(text);
    return id !== null ? ctx.storage.get('token', id) : null;
  };
  router.get('/:id/', requirePermission(permissionFor(tokenDef, 'view')), async (req, res) => {
    const row = await byId(String(req.params.id));
    if (!row) {
      res.status(404).json({ detail: 'Not found.' });
      return;
    }
    res.json(view(baseUrl(req), row, ctx.storage.ids));
  });
  router.delete('/:id/', requirePermission(permissionFor(tokenDef, 'delete')), async (req, res) => {
    const row = await byId(String(req.params.id));
    if (!row) {
      res.status(404).json({ detail: 'Not found.' });
      return;
    }
    await ctx.storage.apply([{ op: 'delete', resource: 'token', id: row.id, before: row }]);
    res.status(204).end();
  });
  return router;
}
