// /api/users/users/, /api/users/groups/, /api/users/permissions/: list (filters and ordering as on
// every list), create, read, replace, change, delete, under users.<action>_<model> permissions.
// Writes are compare-and-swapped on the row's version and tried again on a race, so two writes at
// once both land (nothing acknowledged is lost). Read from the database itself, never a replica.
import { Router, type Request, type Response } from 'express';
import { resource } from '../../engine/schema/registry.js';
import { idStyleOf } from '../../engine/schema/id-style.js';
import { StorageConflict, versionOf, type Row, type WriteOp } from '../../storage/types.js';
import { allows } from '../../app/tokens.js';
import { checkedRow, deleteOps, type UsersResource } from '../../app/user-writes.js';
import { authenticate, permissionFor, requirePermission } from '../auth.js';
import type { AppContext } from '../context.js';
import { authority } from '../../storage/replica/replicated-storage.js';
import { envelope, planRequest } from './inventory.js';
import { baseUrl } from './request-url.js';
import { views } from './users-views.js';
import { raisesOwnRights } from '../../app/escalation.js';

const TRIES = 8;

/** Runs `attempt` until it commits without a version race (each try reads afresh), at most TRIES times. */
async function untilNoRace<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (e) {
      if (!(e instanceof StorageConflict && e.field === 'version') || i >= TRIES) throw e;
    }
  }
}

function refusedConflict(res: Response, e: unknown): boolean {
  if (!(e instanceof StorageConflict) || e.field === 'version') return false;
  res.status(400).json({ [e.field]: [e.message] });
  return true;
}

const who = (req: Request) => req.principal!.userId;
const raiseDetail = (p: string) => `This change would give you a permission you do not hold (${p}).`;

/** 403 when the write of `row` would raise the writer's own rights (app/escalation.ts); superusers hold all. */
async function refusedRaise(ctx: AppContext, req: Request, res: Response, name: UsersResource, row: Row) {
  if (allows(req.principal!, '*')) return false;
  const raise = await raisesOwnRights(authority(ctx.storage), who(req), name, row);
  if (raise) res.status(403).json({ detail: raiseDetail(raise) });
  return raise !== null;
}

export function usersResourceRouter(ctx: AppContext, name: UsersResource): Router {
  const r = resource(name);
  const router = Router();
  const can = (action: 'view' | 'add' | 'change' | 'delete') => requirePermission(permissionFor(r, action));
  const byId = async (text: string): Promise<Row | null> => {
    const id = idStyleOf(r, ctx.storage.ids).parse(text);
    return id !== null ? authority(ctx.storage).get(name, id) : null;
  };
  const answer = async (req: Request, rows: readonly Row[]) => views(authority(ctx.storage), baseUrl(req), name, rows);
  const notFound = (res: Response) => res.status(404).json({ detail: 'Not found.' });
  router.use(authenticate(ctx.tokens));
  readRoutes(ctx, name, router, byId);
  const superuser = (req: Request) => allows(req.principal!, '*');
  router.post('/', can('add'), async (req, res) => {
    const got = await checkedRow(name, {
      storage: authority(ctx.storage),
      body: req.body,
      existing: null,
      partial: false,
      superuser: superuser(req),
    });
    if (!got.ok) return void res.status(400).json(got.errors);
    const row = { ...got.row, id: (await authority(ctx.storage).newIds(name, 1))[0] };
    if (await refusedRaise(ctx, req, res, name, row)) return;
    try {
      await authority(ctx.storage).apply([{ op: 'create', resource: name, row }]);
    } catch (e) {
      if (refusedConflict(res, e)) return;
      throw e;
    }
    res.status(201).json((await answer(req, [row]))[0]);
  });
  const update = (partial: boolean) => async (req: Request, res: Response) => {
    try {
      const done = await untilNoRace(async () => {
        const existing = await byId(String(req.params.id));
        if (!existing) return null;
        const got = await checkedRow(name, {
          storage: authority(ctx.storage),
          body: req.body,
          existing,
          partial,
          superuser: superuser(req),
        });
        if (!got.ok) return got;
        const raise = superuser(req) ? null : await raisesOwnRights(authority(ctx.storage), who(req), name, got.row);
        if (raise) return { ok: false as const, raise };
        const op: WriteOp = {
          op: 'update',
          resource: name,
          row: got.row,
          before: existing,
          expectVersion: versionOf(existing),
        };
        await authority(ctx.storage).apply([op]);
        return got;
      });
      if (!done) return void notFound(res);
      if (!done.ok && 'raise' in done) return void res.status(403).json({ detail: raiseDetail(done.raise) });
      if (!done.ok) return void res.status(400).json(done.errors);
      res.json((await answer(req, [done.row]))[0]);
    } catch (e) {
      if (refusedConflict(res, e)) return;
      throw e;
    }
  };
  router.put('/:id/', can('change'), update(false));
  router.patch('/:id/', can('change'), update(true));
  router.delete('/:id/', can('delete'), async (req, res) => {
    const gone = await untilNoRace(async () => {
      const row = await byId(String(req.params.id));
      if (row) await authority(ctx.storage).apply(await deleteOps(authority(ctx.storage), name, row));
      return row;
    });
    if (!gone) return void notFound(res);
    res.status(204).end();
  });
  return router;
}

/** GET of the list and of one object. */
function readRoutes(
  ctx: AppContext,
  name: UsersResource,
  router: Router,
  byId: (text: string) => Promise<Row | null>,
): void {
  const r = resource(name);
  const can = requirePermission(permissionFor(r, 'view'));
  const answer = async (req: Request, rows: readonly Row[]) => views(authority(ctx.storage), baseUrl(req), name, rows);
  router.get('/', can, async (req, res) => {
    const got = await planRequest(ctx, r, req, res, []);
    if (!got) return;
    const found = await authority(ctx.storage).find(name, got.planned.plan, got.page);
    res.json(envelope(req, got.page, found.count, await answer(req, found.rows)));
  });
  router.get('/:id/', can, async (req, res) => {
    const row = await byId(String(req.params.id));
    if (!row) return void res.status(404).json({ detail: 'Not found.' });
    res.json((await answer(req, [row]))[0]);
  });
}
