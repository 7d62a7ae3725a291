// /api/users/tokens/: list, create (the key is shown once), read, change (token-change.ts), revoke.
import { onlyConstrained } from '../../app/write-scope.js';
import { Router } from 'express';
import { resource } from '../../engine/schema/registry.js';
import { allows } from '../../app/tokens.js';
import { authenticate, permissionFor, requirePermission } from '../auth.js';
import type { AppContext } from '../context.js';
import type { Principal } from '../../app/principal.js';
import type { Row, WriteOp } from '../../storage/types.js';
import { deleteOps } from '../../app/user-writes.js';
import { envelope, planRequest } from './inventory.js';
import { baseUrl } from './request-url.js';
import { idStyleOf } from '../../engine/schema/id-style.js';
import { madeView, TOKEN_OPTIONS, tokenOptions, tokenView } from './token-view.js';
import { tokenChange } from './token-change.js';
import { currentPepper } from '../../app/token-keys.js';
import { authority } from '../../storage/replica/replicated-storage.js';

const tokenDef = resource('token');
/** What a create may give. */
export const TOKEN_FIELDS = ['user', 'permissions', ...TOKEN_OPTIONS];

/** The user a new token is for: the caller's own, or anyone's for a holder of users.grant_token (or `*`). */
async function ownerOf(
  ctx: AppContext,
  who: Principal,
  given: unknown,
  errors: Record<string, string[]>,
): Promise<string | null> {
  const raw = typeof given === 'object' && given !== null && 'id' in given ? (given as { id: unknown }).id : given;
  const id = idStyleOf(resource('user'), ctx.storage.ids).fromJson(raw);
  if (id === null || !(await ctx.storage.get('user', id))) {
    errors.user = [`Invalid pk "${String(raw)}" - object does not exist.`];
    return null;
  }
  if (id !== who.userId && !allows(who, 'users.grant_token')) {
    errors.user = ['Only the user itself, or a holder of users.grant_token, creates tokens for a user.'];
    return null;
  }
  return id;
}

/** A token's delete; the user of its own that a token of the old form was given (`token-<id>`) goes with it. */
async function tokenDeleteOps(ctx: AppContext, row: Row): Promise<WriteOp[]> {
  const own = typeof row.user === 'string' ? await ctx.storage.get('user', row.user) : null;
  if (own?.username !== `token-${row.id}`) return [{ op: 'delete', resource: 'token', id: row.id, before: row }];
  // Its object permissions, granted to it alone and named after it (app/legacy-users.ts), are deleted too.
  const ownPermission = (p: Row | undefined) =>
    !!p && JSON.stringify(p.users) === JSON.stringify([own.id]) && String(p.name).startsWith(own.username as string);
  return (await deleteOps(ctx.storage, 'user', own)).map((op) =>
    op.op === 'update' && op.resource === 'object_permission' && ownPermission(op.before)
      ? ({ op: 'delete', resource: 'object_permission', id: op.row.id, before: op.before } as WriteOp)
      : op,
  );
}

export function tokensRouter(ctx: AppContext): Router {
  const router = Router();
  router.use(authenticate(ctx.tokens));
  router.get('/', requirePermission(permissionFor(tokenDef, 'view')), async (req, res) => {
    // Filters and ordering as on every list: an unknown filter (key_hash among them) is a 400.
    const got = await planRequest(ctx, tokenDef, req, res, []);
    if (!got) return;
    const found = await authority(ctx.storage).find('token', got.planned.plan, got.page);
    res.json(
      envelope(req, got.page, found.count, await Promise.all(found.rows.map((r) => tokenView(ctx, baseUrl(req), r)))),
    );
  });
  router.post('/', requirePermission(permissionFor(tokenDef, 'add')), async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const errors: Record<string, string[]> = Object.create(null);
    for (const k of Object.keys(body)) if (!TOKEN_FIELDS.includes(k)) errors[k] = ['Unknown field.'];
    const opts = tokenOptions(body, errors, currentPepper(ctx.tokens.peppers) !== null);
    // The new form names the user; the old form (no user) gives a permission list, `*` when none.
    if (body.user !== undefined) {
      const userId = await ownerOf(ctx, req.principal!, body.user, errors);
      if (body.permissions !== undefined) errors.permissions = ['Give either user or permissions (the old form).'];
      if (Object.keys(errors).length || userId === null) return void res.status(400).json(errors);
      const made = await ctx.tokens.createForUser(userId, opts);
      return void res.status(201).json(madeView(await tokenView(ctx, baseUrl(req), made.row), made));
    }
    const perms = body.permissions ?? ['*'];
    if (
      !Array.isArray(perms) ||
      !perms.every((p) => typeof p === 'string' && /^(\*|[a-z]+\.(view|add|change|delete)_[a-z]+)$/.test(p))
    )
      errors.permissions = ['Expected a list of permissions such as "*" or "dcim.view_site".'];
    // A permission held only under constraints would be granted whole by the old form: refused too.
    else if (!perms.every((p) => allows(req.principal!, p as string) && !onlyConstrained(req.principal, p as string)))
      errors.permissions = ['A token cannot grant permissions its creator does not have.'];
    for (const k of ['expires', 'write_enabled', 'allowed_ips', 'enabled', 'version'])
      if (k in body) errors[k] = ['Only with user (not the old form).'];
    if (Object.keys(errors).length) return void res.status(400).json(errors);
    const made = await ctx.tokens.create(perms as string[], opts.description ?? '');
    res.status(201).json(madeView(await tokenView(ctx, baseUrl(req), made.row), made));
  });
  const byId = async (text: string) => {
    const id = idStyleOf(tokenDef, ctx.storage.ids).parse(text);
    return id !== null ? authority(ctx.storage).get('token', id) : null;
  };
  router.get('/:id/', requirePermission(permissionFor(tokenDef, 'view')), async (req, res) => {
    const row = await byId(String(req.params.id));
    if (!row) {
      res.status(404).json({ detail: 'Not found.' });
      return;
    }
    res.json(await tokenView(ctx, baseUrl(req), row));
  });
  router.patch('/:id/', requirePermission(permissionFor(tokenDef, 'change')), tokenChange(ctx, true));
  router.put('/:id/', requirePermission(permissionFor(tokenDef, 'change')), tokenChange(ctx, false));
  router.delete('/:id/', requirePermission(permissionFor(tokenDef, 'delete')), async (req, res) => {
    const row = await byId(String(req.params.id));
    if (!row) {
      res.status(404).json({ detail: 'Not found.' });
      return;
    }
    await ctx.storage.apply(await tokenDeleteOps(ctx, row));
    res.status(204).end();
  });
  return router;
}
