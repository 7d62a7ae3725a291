// Inventory REST endpoints, one router generated per registry resource.
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { RESOURCES, contentType, resourcePath } from '../../engine/schema/registry.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import { authenticate, permissionFor, requirePermission, viewScope } from '../auth.js';
import type { AppContext } from '../context.js';
import { serializeRows } from '../serialize.js';
import { isTrue, parsePage, parseShape, parseStart, type Shape } from './list-params.js';
import { and, cmp, TRUE, type Plan } from '../../engine/plan/nodes.js';
import { viewScopes, visibleRow, within } from '../../app/view-scope.js';
import { unconstrained } from '../../app/permission-scope.js';
import { recordRowsPlan, recordRowVisible } from '../../app/change-scope.js';
import { optionsBody } from './options.js';
import type { Row } from '../../storage/types.js';
import type { WriteResult } from '../../app/inventory.js';
import { ifMatchOf, setEtag } from '../etag.js';
import { answerWrite, writeKey, type AnswerShape } from './write-answer.js';
import { baseUrl } from './request-url.js';
import type { KeyedWrite } from '../../app/write-keys.js';
import { abortedWhenClientGone } from '../client-gone.js';
import { describe, planJson } from '../../engine/plan/describe.js';
import type { CachedPlan } from '../../engine/plan/plan-cache.js';
import type { CustomFieldDef } from '../../engine/schema/types.js';
import type { Page } from '../../storage/types.js';
import { parentFilterPairs } from '../../app/prefix-parent-filter.js';
import { listTag, noneMatch } from '../list-tags.js';
import { jsonBody, pageKey, sendJson } from '../page-cache.js';
import { writeContext } from '../../storage/change-log/write-context.js';
import { listedTwiceErrors } from './bulk-ids.js';
import { idStyleOf } from '../../engine/schema/id-style.js';
import { exportFormat, sendExport } from '../transfer/export.js';
import { answerImport, isImport } from '../transfer/import.js';

function queryPairs(req: Request): [string, string][] {
  const i = req.originalUrl.indexOf('?');
  return i < 0 ? [] : [...new URLSearchParams(req.originalUrl.slice(i + 1))];
}

/** The query's parameters as lists by name (what a list plan's `control` holds). */
function controlOf(req: Request): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of queryPairs(req)) (out[k] ??= []).push(v);
  return out;
}

function pageUrl(req: Request, limit: number, offset: number | null): string | null {
  if (offset === null) return null;
  const params = new URLSearchParams(queryPairs(req).filter(([k]) => k !== 'limit' && k !== 'offset'));
  params.set('limit', String(limit));
  if (offset > 0) params.set('offset', String(offset));
  return `${baseUrl(req)}${req.baseUrl}${req.path === '/' ? '/' : req.path}?${params}`;
}

async function serialize(
  ctx: AppContext,
  r: ResourceDef,
  req: Request,
  rows: readonly Row[],
  shape: Shape = WHOLE,
  as: { listPage?: boolean; created?: boolean } = {},
) {
  return serializeRows(r, rows, {
    baseUrl: baseUrl(req),
    storage: ctx.storage,
    scopes: await viewScopes(ctx.inventory, req.principal),
    customFields: await ctx.inventory.customFieldsFor(r),
    brief: shape.brief,
    keep: shape.keep,
    ...as,
  });
}

const WHOLE: Shape = { brief: false, keep: null };

/** The shape `brief` / `fields` / `omit` ask for, or null after answering 400. */
function shapeOf(r: ResourceDef, control: Readonly<Record<string, readonly string[]>>, res: Response): Shape | null {
  const got = parseShape(r, control);
  if (got.ok) return got.shape;
  res.status(400).json(got.errors);
  return null;
}

/** The custom fields a list request names: `cf_<name>[__lookup]` filters, and `ordering` by them. */
function* customFieldsNamed(pairs: readonly [string, string][]): Iterable<string> {
  for (const [k, v] of pairs) {
    if (k.startsWith('cf_')) yield k.slice(3).split('__')[0];
    else if (k === 'ordering')
      for (const o of v.split(',')) if (o.replace(/^-/, '').startsWith('cf_')) yield o.replace(/^-/, '').slice(3);
  }
}

/** Filters and paging of a list request, or null after answering 400. Shared by every list endpoint. */
export async function planRequest(
  ctx: AppContext,
  r: ResourceDef,
  req: Request,
  res: Response,
  customFields: readonly CustomFieldDef[],
): Promise<{ planned: CachedPlan; page: Page; pairs: [string, string][] } | null> {
  // An inventory list shows only what the caller may view (the users app's and jobs' lists have rules of their own).
  const scopes = r.inventory === false ? null : await viewScopes(ctx.inventory, req.principal);
  const scope = scopes?.(r.name) ?? TRUE;
  const parents = await parentFilterPairs(ctx.storage, r, queryPairs(req), (id) =>
    visibleRow(ctx.inventory, r, id, scopes?.('prefix') ?? TRUE),
  ); // parent=<prefix id> -> its CIDR
  if ('errors' in parents) {
    res.status(400).json(parents.errors);
    return null;
  }
  const { pairs } = parents;
  const asked = ctx.planCache.get(r, pairs, {
    strict: ctx.config.strictFiltering,
    customFields,
    ids: ctx.storage.ids,
  });
  const scoped = unconstrained(scope) ? asked : { ...asked, plan: within(asked.plan, scope) };
  // limit/offset are not part of the plan cache key: read them from this request.
  const paging = {
    ...scoped.control,
    limit: pairs.filter(([k]) => k === 'limit').map(([, v]) => v),
    offset: pairs.filter(([k]) => k === 'offset').map(([, v]) => v),
  };
  if (Object.keys(scoped.errors).length) {
    res.status(400).json(scoped.errors);
    return null;
  }
  // The change log and webhook deliveries: only records of objects the caller may view (lists and exports).
  const records = await recordRowsPlan(ctx.storage, req.principal, r, scoped.plan, ctx.inventory);
  const planned = records === TRUE ? scoped : { ...scoped, plan: and([scoped.plan, records]) };
  const { page, ignored } = parsePage(r, paging, ctx.config.maxPageSize);
  if (planned.ignored.length)
    ctx.log.warn(`ignored unknown filter parameters on ${req.baseUrl}: ${planned.ignored.join(', ')}`);
  if (ignored.length) ctx.log.info(`ignored paging parameters on ${req.baseUrl}: ${ignored.join(', ')}`);
  return { planned, page, pairs };
}

/** The list envelope around one page of already serialized results. */
export function envelope(req: Request, page: Page, count: number, results: unknown[]) {
  const next = page.offset + page.limit < count ? page.offset + page.limit : null;
  const prev = page.offset > 0 ? Math.max(0, page.offset - page.limit) : null;
  return { count, next: pageUrl(req, page.limit, next), previous: pageUrl(req, page.limit, prev), results };
}

/** The plan and how the storage runs it for this page (ordering, offset, limit as requested). */
export async function sendExplain(
  ctx: AppContext,
  r: ResourceDef,
  res: Response,
  planned: CachedPlan,
  page: Page,
): Promise<void> {
  const t0 = performance.now();
  const execution = await ctx.storage.explain(r.name, planned.plan, page);
  // Explaining runs the index steps (memory) or EXPLAIN (SQL).
  const ms = Math.round((performance.now() - t0) * 100) / 100;
  res.json({
    resource: contentType(r),
    storage: ctx.storage.kind,
    plan: describe(planned.plan),
    tree: planJson(planned.plan),
    ignored: planned.ignored,
    execution,
    ms,
  });
}

async function list(ctx: AppContext, r: ResourceDef, req: Request, res: Response): Promise<void> {
  const format = exportFormat(req); // ?format=csv|yaml, Accept: text/csv: the whole list, streamed
  if (format) return sendExport(ctx, r, req, res, format);
  // Read from this process's memory: the page may be one already sent (same URL, same generation).
  const state = ctx.storage.memoryRead?.(r.name) ?? null;
  if (req.headers['if-none-match'] !== undefined) {
    const tag = await listTag(ctx.storage, state, res);
    res.setHeader('ETag', tag);
    if (noneMatch(req, tag)) {
      res.status(304).end();
      return;
    }
  }
  const key =
    state && req.principal && ctx.pages.enabled
      ? pageKey(
          viewScope(req.principal),
          String(res.getHeader('API-Version')),
          req.protocol,
          req.get('host'),
          req.originalUrl,
        )
      : null;
  const hit = key ? ctx.pages.get(key, state!.gen) : undefined;
  if (hit) {
    sendJson(res, hit);
    return;
  }
  const got = await planRequest(
    ctx,
    r,
    req,
    res,
    await ctx.inventory.customFieldsFor(r, customFieldsNamed(queryPairs(req))),
  );
  if (!got) return;
  const { planned, page, pairs } = got;
  if (isTrue(planned.control.explain)) {
    await sendExplain(ctx, r, res, planned, page);
    return;
  }
  const shape = shapeOf(r, planned.control, res);
  if (!shape) return;
  // `start`, like limit and offset, is not in the plan cache's key: read from this request's pairs.
  const cursor = parseStart(pairs, idStyleOf(r, ctx.storage.ids));
  if (!cursor.ok) {
    res.status(400).json(cursor.errors);
    return;
  }
  if (cursor.start !== null) {
    await cursorList(ctx, r, req, res, { plan: planned.plan, pairs }, page.limit, cursor.start, shape);
    return;
  }
  await ctx.heavy.run(planned.plan, res, async () => {
    const found = await ctx.inventory.find(r, planned.plan, page, { signal: abortedWhenClientGone(res) });
    const body = jsonBody(
      envelope(req, page, found.count, await serialize(ctx, r, req, found.rows, shape, { listPage: true })),
    );
    // Kept under the generation read before it (never newer than the page), and only when that is still
    // current (else no read would find it) and the replica, not the database, answered.
    if (key && ctx.storage.memoryRead?.(r.name)?.gen === state!.gen && writeContext()?.readSource !== 'database')
      ctx.pages.set(key, state!.gen, body);
    sendJson(res, body);
  });
}

/**
 * A create's answer: the body (one object, or a non-empty list of them) goes to `create`; 201 with
 * the created object, or the list in the order given; else the errors (an object body's own).
 */
export async function answerCreate(
  ctx: AppContext,
  r: ResourceDef,
  req: Request,
  res: Response,
  create: (bodies: readonly unknown[], key: KeyedWrite | undefined) => Promise<WriteResult<Row[]>>,
): Promise<void> {
  const bulk = Array.isArray(req.body);
  const bodies = bulk ? (req.body as unknown[]) : [req.body];
  if (bulk && bodies.length === 0) {
    res.status(400).json({ non_field_errors: ['Expected a non-empty list of items.'] });
    return;
  }
  const as = answerShape(r, req, res, !bulk, true);
  if (!as) return;
  const key = await writeKey(ctx, r, req, res, as);
  if (key === null) return;
  const out = await create(bodies, key);
  // One object's errors are its own, not a list of one.
  const errors = !out.ok && Array.isArray(out.errors) && !bulk ? out.errors[0] : null;
  await answerWrite(ctx, r, req, res, errors ? ({ ...out, errors } as WriteResult<Row[]>) : out, 201, as, key);
}

/** The shape a write's answer takes, or null after answering 400 (checked before anything is written). */
function answerShape(
  r: ResourceDef,
  req: Request,
  res: Response,
  single: boolean,
  created = false,
): AnswerShape | null {
  const shape = shapeOf(r, controlOf(req), res);
  return shape && { single, shape, created };
}

/**
 * A cursor page: objects in id order from `start` on, one more read than shown to find the next
 * start. The cost does not grow with depth (no offset to skip, no total to count): `count` is null.
 */
async function cursorList(
  ctx: AppContext,
  r: ResourceDef,
  req: Request,
  res: Response,
  asked: { plan: Plan; pairs: readonly [string, string][] },
  limit: number,
  start: string,
  shape: Shape,
): Promise<void> {
  const plan = and([asked.plan, cmp('id', 'string', 'gte', false, [start])]);
  await ctx.heavy.run(plan, res, async () => {
    const found = await ctx.inventory.find(
      r,
      plan,
      { limit: limit + 1, offset: 0, ordering: [{ field: 'id', desc: false }] },
      { signal: abortedWhenClientGone(res), noCount: true },
    );
    const following = found.rows.length > limit ? found.rows[limit].id : null;
    const params = new URLSearchParams(asked.pairs.filter(([k]) => k !== 'start'));
    if (following) params.set('start', following);
    const next = following ? `${baseUrl(req)}${req.baseUrl}/?${params}` : null;
    res.json({
      count: null,
      next,
      previous: null,
      results: await serialize(ctx, r, req, found.rows.slice(0, limit), shape, { listPage: true }),
    });
  });
}

export function inventoryRouter(ctx: AppContext, r: ResourceDef): Router {
  const router = Router();
  const can = (action: 'view' | 'add' | 'change' | 'delete') => requirePermission(permissionFor(r, action));
  router.use(authenticate(ctx.tokens));

  router.get('/', can('view'), (req, res) => list(ctx, r, req, res));
  router.options('/', can('view'), (req, res) => {
    res.json(optionsBody(r, req.principal!, 'list', ctx.storage.ids.name));
  });
  // An object outside the caller's view scope (a change record or delivery: of an object outside) is absent: 404.
  const visible = async (req: Request, res: Response): Promise<Row | null> => {
    const scope = (await viewScopes(ctx.inventory, req.principal))(r.name);
    const found = await visibleRow(ctx.inventory, r, String(req.params.id), scope);
    const row = found && (await recordRowVisible(ctx.storage, req.principal, r, found, ctx.inventory)) ? found : null;
    if (!row) res.status(404).json({ detail: 'Not found.' });
    return row;
  };
  router.options('/:id/', can('view'), async (req, res) => {
    if (await visible(req, res)) res.json(optionsBody(r, req.principal!, 'object', ctx.storage.ids.name));
  });
  router.get('/:id/', can('view'), async (req, res) => {
    const row = await visible(req, res);
    if (!row) return;
    const shape = shapeOf(r, controlOf(req), res);
    if (!shape) return;
    // A brief or narrowed form is another representation: no tag of its own.
    if (!shape.brief && !shape.keep) setEtag(res, row);
    res.json((await serialize(ctx, r, req, [row], shape))[0]);
  });
  if (r.writable !== false) writeRoutes(ctx, r, router);
  return router;
}

/** POST, bulk PUT / PATCH / DELETE on the list, PUT / PATCH / DELETE on an object. */
function writeRoutes(ctx: AppContext, r: ResourceDef, router: Router): void {
  const can = (action: 'add' | 'change' | 'delete') => requirePermission(permissionFor(r, action));
  router.post('/', can('add'), (req, res) =>
    isImport(req)
      ? answerImport(ctx, r, req, res)
      : answerCreate(ctx, r, req, res, (bodies, key) => ctx.inventory.create(r, bodies, key, req.principal)),
  );
  bulkWriteRoutes(ctx, r, router, can);
  objectWriteRoutes(ctx, r, router, can);
}

type CanWrite = (action: 'add' | 'change' | 'delete') => RequestHandler;

/** A write's answer shape and key, or null once answered (a 400, a replay). */
async function prepared(ctx: AppContext, r: ResourceDef, req: Request, res: Response, single: boolean) {
  const as = answerShape(r, req, res, single);
  if (!as) return null;
  const key = await writeKey(ctx, r, req, res, as);
  return key === null ? null : { as, key };
}

/** Makes a write once its answer shape and key are settled, and answers it with `status`. */
async function answered<T extends Row | Row[] | null>(
  ctx: AppContext,
  r: ResourceDef,
  req: Request,
  res: Response,
  at: { single: boolean; status: number },
  write: (key: KeyedWrite | undefined) => Promise<WriteResult<T>>,
): Promise<void> {
  const p = await prepared(ctx, r, req, res, at.single);
  if (!p) return;
  await answerWrite(ctx, r, req, res, await write(p.key), at.status, p.as, p.key);
}

const PUT_AND_PATCH = [
  ['put', false],
  ['patch', true],
] as const;

/** Bulk writes on the list URL (NetBox 2.10+, Nautobot): a list of objects each with its id; all or none. */
function bulkWriteRoutes(ctx: AppContext, r: ResourceDef, router: Router, can: CanWrite): void {
  for (const [method, partial] of PUT_AND_PATCH) {
    router[method]('/', can('change'), async (req, res) => {
      const items = bulkItemsOf(req, res);
      if (!items) return;
      const bodies = items.map((b) => ({ id: b.id, body: b }));
      await answered(ctx, r, req, res, { single: false, status: 200 }, (key) =>
        ctx.inventory.updateMany(r, bodies, partial, null, key, req.principal),
      );
    });
  }
  router.delete('/', can('delete'), async (req, res) => {
    const items = bulkItemsOf(req, res);
    if (!items) return;
    const twice = listedTwiceErrors(items.map((b) => b.id));
    if (twice) {
      res.status(400).json(twice);
      return;
    }
    const ids = items.map((b) => b.id);
    await answered(ctx, r, req, res, { single: false, status: 204 }, (key) =>
      ctx.inventory.deleteMany(r, ids, null, key, req.principal),
    );
  });
}

/** PUT / PATCH / DELETE on an object's URL. */
function objectWriteRoutes(ctx: AppContext, r: ResourceDef, router: Router, can: CanWrite): void {
  for (const [method, partial] of PUT_AND_PATCH) {
    router[method]('/:id/', can('change'), (req, res) =>
      answered(ctx, r, req, res, { single: true, status: 200 }, (key) =>
        ctx.inventory.update(r, String(req.params.id), req.body, partial, ifMatchOf(req), key, req.principal),
      ),
    );
  }
  router.delete('/:id/', can('delete'), (req, res) =>
    answered(ctx, r, req, res, { single: true, status: 204 }, (key) =>
      ctx.inventory.delete(r, String(req.params.id), ifMatchOf(req), key, req.principal),
    ),
  );
}

const BULK_SHAPE = 'Expected a non-empty list of objects, each with its "id".';

/** A bulk body: a non-empty list of objects each carrying an id (text, or a number in an integer store), as
 * text; null for anything else. */
function bulkItems(body: unknown): ({ id: string } & Record<string, unknown>)[] | null {
  if (!Array.isArray(body) || body.length === 0) return null;
  const idOf = (b: unknown) => {
    const id = typeof b === 'object' && b !== null && !Array.isArray(b) ? (b as { id?: unknown }).id : undefined;
    return typeof id === 'string' ? id : typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : null;
  };
  const ids = body.map(idOf);
  if (ids.some((id) => id === null)) return null;
  return body.map((b: Record<string, unknown>, i) => ({ ...b, id: ids[i]! }));
}

/** The request's bulk body, or null once answered with a 400. */
function bulkItemsOf(req: Request, res: Response): ReturnType<typeof bulkItems> {
  const items = bulkItems(req.body);
  if (!items) res.status(400).json({ non_field_errors: [BULK_SHAPE] });
  return items;
}

export const INVENTORY_RESOURCES = RESOURCES.filter((r) => r.inventory !== false);
