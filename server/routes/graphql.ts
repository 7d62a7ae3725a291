// The GraphQL door: `POST` (JSON `{query, variables, operationName}`) and `GET ?query=` at /graphql/ (NetBox)
// and /api/graphql/ (Nautobot), with the token check of REST. The request is answered by the GraphQL service
// (app/graphql/run-graphql.ts); here it is read, and who asks becomes a viewer: a resource is visible with its
// view permission (`*` or `<app>.view_<name>`), as on its REST list. GraphQL errors (syntax, validation,
// limits, a mutation, a field the viewer may not see) are 200 with `errors`, as GraphQL over HTTP answers
// `application/json`; a request that is no GraphQL request (no query, bad JSON, variables no object) is 400.
import { Router, type Request, type Response } from 'express';
import type { GraphqlLimits, GraphqlRequest, GraphqlViewer } from '../../app/graphql/contract.js';
import { FALSE } from '../../engine/plan/nodes.js';
import type { CustomFieldDef, ResourceDef } from '../../engine/schema/types.js';
import type { Storage } from '../../storage/types.js';
import { scopeOf } from '../../app/permission-scope.js';
import { namesRecords, recordRowsPlan } from '../../app/change-scope.js';
import type { Principal } from '../../app/tokens.js';
import type { Config } from '../config/defaults.js';
import { authenticate, permissionFor, refusal } from '../auth.js';
import { abortedWhenClientGone } from '../client-gone.js';
import type { AppContext } from '../context.js';

export const GRAPHQL_PATHS = ['/graphql', '/api/graphql'] as const;

/** Where a browser asking for the endpoint itself (no query) is sent: the explorer. */
export const EXPLORER_URL = '/ui/#/graphql';

export function graphqlLimits(config: Config): GraphqlLimits {
  return {
    maxDepth: config.graphqlMaxDepth,
    maxAliases: config.graphqlMaxAliases,
    maxObjects: config.graphqlMaxObjects,
    maxPageSize: config.maxPageSize,
  };
}

/**
 * A viewer seeing what the principal's view permissions allow, each resource decided once, and of each
 * resource the objects its constraints keep (app/permission-scope.ts, translated once per principal).
 */
export function viewerOf(
  principal: Principal | undefined,
  storage: Storage,
  defs: { customFields(): Promise<readonly CustomFieldDef[]> },
): GraphqlViewer {
  const known = new Map<ResourceDef, boolean>();
  return {
    canView(r) {
      let yes = known.get(r);
      // A view limited by constraints is served: every read ANDs the scope in (request-scope.ts).
      if (yes === undefined) known.set(r, (yes = refusal(principal, permissionFor(r, 'view')) === null));
      return yes;
    },
    scope: (r, customFields) => (principal ? scopeOf(principal, r, 'view', customFields, storage.ids) : FALSE),
    rows: { judges: namesRecords, plan: (r, where) => recordRowsPlan(storage, principal, r, where, defs) },
  };
}

type Read = { ok: true; request: GraphqlRequest } | { ok: false; message: string };

/** `variables`: an object, null, absent, or (in a query string) the JSON text of one. */
function variablesOf(v: unknown, fromText: boolean): { ok: true; value: GraphqlRequest['variables'] } | null {
  if (v === undefined || v === null || v === '') return { ok: true, value: null };
  let value = v;
  if (fromText) {
    if (typeof v !== 'string') return null;
    try {
      value = JSON.parse(v);
    } catch {
      return null;
    }
  }
  if (value === null) return { ok: true, value: null };
  if (typeof value !== 'object' || Array.isArray(value)) return null;
  return { ok: true, value: value as Record<string, unknown> };
}

/** The GraphQL request a body or a query string holds, or what is wrong with it. */
export function readGraphqlRequest(source: unknown, fromText: boolean): Read {
  if (source === null || typeof source !== 'object' || Array.isArray(source))
    return { ok: false, message: 'The body must be a JSON object: {"query": "...", "variables": {...}}.' };
  const { query, variables, operationName } = source as Record<string, unknown>;
  if (typeof query !== 'string' || query.trim() === '') return { ok: false, message: 'Must provide query string.' };
  const vars = variablesOf(variables, fromText);
  if (!vars) return { ok: false, message: 'Variables are invalid JSON: variables must be a JSON object.' };
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string')
    return { ok: false, message: 'operationName must be a string.' };
  const name = operationName === '' ? null : (operationName ?? null);
  return { ok: true, request: { query, variables: vars.value, operationName: name } };
}

/** The query string's parameters, each once (a repeated one is refused: which would be meant?). */
function queryParams(req: Request): Record<string, string> | string {
  const i = req.originalUrl.indexOf('?');
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(i < 0 ? '' : req.originalUrl.slice(i + 1))) {
    if (k in out) return `${k} is given more than once.`;
    out[k] = v;
  }
  return out;
}

const refuse = (res: Response, message: string) => res.status(400).json({ errors: [{ message }] });

export function graphqlRouter(ctx: AppContext): Router {
  const router = Router();
  const limits = graphqlLimits(ctx.config);
  const answer = async (req: Request, res: Response, read: Read) => {
    if (!read.ok) {
      refuse(res, read.message);
      return;
    }
    const signal = abortedWhenClientGone(res);
    const result = await ctx.graphql.run(read.request, {
      limits,
      viewer: viewerOf(req.principal, ctx.storage, ctx.inventory),
      signal,
    });
    if (!signal.aborted) res.status(200).json(result);
  };
  router.get('/', (req, res, next) => {
    const params = queryParams(req);
    // A browser opening the endpoint (NetBox serves GraphiQL there) goes to the explorer.
    if (typeof params === 'object' && params.query === undefined && req.accepts(['json', 'html']) === 'html') {
      res.redirect(302, EXPLORER_URL);
      return;
    }
    next();
  });
  router.use(authenticate(ctx.tokens));
  router.get('/', async (req, res) => {
    const params = queryParams(req);
    await answer(
      req,
      res,
      typeof params === 'string' ? { ok: false, message: params } : readGraphqlRequest(params, true),
    );
  });
  router.post('/', async (req, res) => {
    await answer(req, res, readGraphqlRequest(req.body, false));
  });
  router.all('/', (req, res) => {
    if (req.method === 'OPTIONS') {
      res.set('Allow', 'GET, HEAD, POST, OPTIONS').status(204).end();
      return;
    }
    res
      .set('Allow', 'GET, HEAD, POST, OPTIONS')
      .status(405)
      .json({ detail: `Method "${req.method}" not allowed.`, code: 'method_not_allowed' });
  });
  return router;
}
