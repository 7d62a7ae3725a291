// IP allocation under a prefix, as NetBox and Nautobot have it: `{id}/available-prefixes/` and
// `{id}/available-ips/`. GET answers a plain list (NetBox's shape: family, prefix or address, vrf);
// POST allocates for one object body (201 with the object) or a list of them (201 with the list,
// all or none). The work is in app/allocation.ts.
import { Router, type Request, type Response } from 'express';
import { parseCidr } from '../../engine/net/ip.js';
import { resource } from '../../engine/schema/registry.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import type { WriteResult } from '../../app/inventory.js';
import { Allocation } from '../../app/allocation.js';
import type { Principal } from '../../app/principal.js';
import type { Row } from '../../storage/types.js';
import { authenticate, permissionFor, requirePermission } from '../auth.js';
import type { AppContext } from '../context.js';
import { answerCreate } from './inventory.js';
import type { KeyedWrite } from '../../app/write-keys.js';
import { DEFAULT_LIMIT } from './list-params.js';
import { MSG } from '../../engine/schema/messages.js';
import { viewScopes, visibleRow } from '../../app/view-scope.js';

/**
 * `limit` as NetBox reads it here: a whole number, at most maxPageSize; anything that is not a
 * whole number is the default. A whole number below 1 is refused (NetBox reads 0 as the largest
 * page and lists every free address for a negative one): null after answering 400 naming `limit`.
 */
function limitOf(req: Request, res: Response, fallback: number, max: number): number | null {
  const raw = typeof req.query.limit === 'string' ? req.query.limit : '';
  const n = /^[+-]?\d{1,12}$/.test(raw) ? Number(raw) : fallback;
  if (n < 1) {
    res.status(400).json({ limit: [MSG.min(1)] });
    return null;
  }
  return Math.min(n, max);
}

/**
 * Ansible's netbox_prefix (`first_available`) and netbox_ip_address (`state: new`) send the parent
 * prefix along in each body, as `parent` and as `prefix`, written as the user wrote it; NetBox
 * ignores it. Dropped here when it names this parent (its id, or its block), so any other value
 * still meets the field checks.
 */
function withoutParentNamed(key: string, parent: Row, body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !(key in body)) return body;
  const { [key]: named, ...rest } = body as Record<string, unknown>;
  return named === parent.id || isBlock(named, String(parent.prefix)) ? rest : body;
}

/** `text` is the CIDR block `prefix` (host bits clear), however written. */
function isBlock(text: unknown, prefix: string): boolean {
  const given = typeof text === 'string' ? parseCidr(text, { requireLength: true }) : null;
  const own = parseCidr(prefix);
  return !!given && !!own && given.family === own.family && given.length === own.length && given.host === own.network;
}

/** Mounted at the prefixes' path. */
export function allocationRouter(ctx: AppContext): Router {
  const router = Router();
  const prefix = resource('prefix'),
    ip = resource('ip_address');
  const allocation = new Allocation(ctx.inventory);
  const max = ctx.config.maxPageSize;
  const viewParent = [authenticate(ctx.tokens), requirePermission(permissionFor(prefix, 'view'))];

  /** The parent prefix, or null after answering 404 (also when it lies outside the caller's view scope). */
  const parentOf = async (req: Request, res: Response): Promise<Row | null> => {
    const scope = (await viewScopes(ctx.inventory, req.principal))(prefix.name);
    const row = await visibleRow(ctx.inventory, prefix, String(req.params.id), scope);
    if (!row) res.status(404).json({ detail: 'Not found.' });
    return row;
  };
  const allocate =
    (
      r: ResourceDef,
      parentKey: string,
      run: (
        parent: Row,
        bodies: readonly unknown[],
        key: KeyedWrite | undefined,
        who: Principal | undefined,
      ) => Promise<WriteResult<Row[]>>,
    ) =>
    async (req: Request, res: Response) => {
      const parent = await parentOf(req, res);
      // A POST without a body asks for one object with no other fields (pynetbox sends {}).
      if (!parent) return;
      await answerCreate(ctx, r, req, res, (bodies, key) =>
        run(
          parent,
          bodies.map((b) => withoutParentNamed(parentKey, parent, b ?? {})),
          key,
          req.principal,
        ),
      );
    };

  // NetBox lists every free block (this product at most maxPageSize unless `limit` says fewer).
  router.get('/:id/available-prefixes/', ...viewParent, async (req, res) => {
    const limit = limitOf(req, res, max, max);
    const parent = limit === null ? null : await parentOf(req, res);
    if (parent) res.json(await allocation.availablePrefixes(parent, limit!));
  });
  router.post(
    '/:id/available-prefixes/',
    ...viewParent,
    requirePermission(permissionFor(prefix, 'add')),
    allocate(prefix, 'parent', (parent, bodies, key, who) => allocation.allocatePrefixes(parent, bodies, key, who)),
  );
  router.get('/:id/available-ips/', ...viewParent, async (req, res) => {
    const limit = limitOf(req, res, DEFAULT_LIMIT, max);
    const parent = limit === null ? null : await parentOf(req, res);
    if (parent) res.json(await allocation.availableIps(parent, limit!));
  });
  router.post(
    '/:id/available-ips/',
    ...viewParent,
    requirePermission(permissionFor(ip, 'add')),
    allocate(ip, 'prefix', (parent, bodies, key, who) => allocation.allocateIps(parent, bodies, key, who)),
  );
  return router;
}
