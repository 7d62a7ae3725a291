// Lifecycle endpoints under /api/v1: machines, entities, events, history.
import { abortedWhenClientGone } from '../client-gone.js';
import { Router, type Request, type RequestHandler } from 'express';
import { LRUCache } from 'lru-cache';
import { machineToSvg } from '../../engine/lifecycle/index.js';
import { resource } from '../../engine/schema/registry.js';
import type { KeyedCall } from '../../app/lifecycle.js';
import { authenticate, permissionFor, requirePermission } from '../auth.js';
import type { AppContext } from '../context.js';
import { isTrue, plainPage } from './list-params.js';
import { envelope, planRequest, sendExplain } from './inventory.js';
import { entityAnswer, entityView, historyView, sendEntityResult, sendInstallResult } from './lifecycle-answers.js';

const entityDef = resource('entity');
const machineDef = resource('machine');
const historyDef = resource('history');

/** The call's Idempotency-Key, with the answer its outcome gets (kept for a repeat). */
function keyed(req: Request): KeyedCall | null {
  const key = req.get('idempotency-key');
  return key === undefined ? null : { key, answer: entityAnswer };
}

type Can = (r: typeof entityDef, action: 'view' | 'add' | 'change') => RequestHandler;

export function lifecycleRouter(ctx: AppContext): Router {
  const router = Router();
  router.use(authenticate(ctx.tokens));
  const can: Can = (r, action) => requirePermission(permissionFor(r, action));
  machineRoutes(ctx, router, can);
  entityRoutes(ctx, router, can);
  return router;
}

const pageOf = (ctx: AppContext, req: Request, def: typeof entityDef) =>
  plainPage(def, req.query, ctx.config.maxPageSize);

/** Machines: their list, installing one, its versions, a version's definition and its diagram. */
function machineRoutes(ctx: AppContext, router: Router, can: Can): void {
  const diagrams = new LRUCache<string, string>({ max: 200 });
  const lc = ctx.lifecycle;
  router.get(['/machines', '/machines/'], can(machineDef, 'view'), async (req, res) => {
    const page = pageOf(ctx, req, machineDef);
    const found = await lc.machinePage(page.limit, page.offset);
    const results = found.rows.map((r) => ({
      machine_name: r.machine_name,
      version: r.version,
      description: (r.definition as { meta?: { description?: string } }).meta?.description ?? '',
    }));
    res.json(envelope(req, page, found.count, results));
  });
  router.post(['/machines', '/machines/'], can(machineDef, 'add'), async (req, res) =>
    sendInstallResult(res, await lc.installMachine(req.body)),
  );
  router.get('/machines/:name', can(machineDef, 'view'), async (req, res) => {
    const rows = await lc.machineRows(String(req.params.name));
    if (!rows.length) {
      res.status(404).json({ detail: `Machine ${req.params.name} not found.`, code: 'machine_not_found' });
      return;
    }
    const latest = await lc.machine(String(req.params.name));
    res.json({
      machine_name: req.params.name,
      versions: rows.map((r) => r.version),
      latest: latest?.meta.version ?? null,
      definition: latest,
    });
  });
  router.get('/machines/:name/versions/:version', can(machineDef, 'view'), async (req, res) => {
    const def = await lc.machine(String(req.params.name), String(req.params.version));
    if (!def) {
      res.status(404).json({
        detail: `Machine ${req.params.name} version ${req.params.version} not found.`,
        code: 'machine_not_found',
      });
      return;
    }
    res.json(def);
  });
  router.get('/machines/:name/versions/:version/diagram.svg', can(machineDef, 'view'), async (req, res) => {
    const def = await lc.machine(String(req.params.name), String(req.params.version));
    if (!def) {
      res.status(404).json({ detail: 'Machine not found.', code: 'machine_not_found' });
      return;
    }
    // A stored version never changes: its picture is drawn once.
    const key = `${def.meta.machine_name}@${def.meta.version}`;
    let svg = diagrams.get(key);
    if (svg === undefined) diagrams.set(key, (svg = machineToSvg(def)));
    res.type('image/svg+xml').send(svg);
  });
}

/** Entities: their list, creating one, events, one entity and its history. */
function entityRoutes(ctx: AppContext, router: Router, can: Can): void {
  const lc = ctx.lifecycle;
  router.get(['/entities', '/entities/'], can(entityDef, 'view'), async (req, res) => {
    const got = await planRequest(ctx, entityDef, req, res, []);
    if (!got) return;
    if (isTrue(got.planned.control.explain)) {
      await sendExplain(ctx, entityDef, res, got.planned, got.page);
      return;
    }
    await ctx.heavy.run(got.planned.plan, res, async () => {
      const found = await lc.findEntities(got.planned.plan, got.page, { signal: abortedWhenClientGone(res) });
      res.json(envelope(req, got.page, found.count, found.rows.map(entityView)));
    });
  });
  router.post('/entities/:entity_id/create', can(entityDef, 'add'), async (req, res) =>
    sendEntityResult(res, await lc.create(String(req.params.entity_id), req.body, keyed(req))),
  );
  router.post('/entities/:entity_id/events', can(entityDef, 'change'), async (req, res) =>
    sendEntityResult(res, await lc.event(String(req.params.entity_id), req.body, keyed(req))),
  );
  router.get('/entities/:entity_id', can(entityDef, 'view'), async (req, res) => {
    const row = await lc.entityRow(String(req.params.entity_id));
    if (!row) {
      res.status(404).json({ detail: `Entity ${req.params.entity_id} not found.`, code: 'entity_not_found' });
      return;
    }
    res.json(entityView(row));
  });
  router.get('/entities/:entity_id/history', can(entityDef, 'view'), async (req, res) => {
    const id = String(req.params.entity_id);
    if (!(await lc.entityRow(id))) {
      res.status(404).json({ detail: `Entity ${id} not found.`, code: 'entity_not_found' });
      return;
    }
    const page = pageOf(ctx, req, historyDef);
    const found = await lc.history(id, page);
    res.json(envelope(req, page, found.count, found.rows.map(historyView)));
  });
}
