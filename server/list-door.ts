// Cached list pages answered before Express routes the request. A GET of a list URL whose page this
// process keeps (page-cache.ts) at its store's current generation needs none of the app's ~50 mount
// layers: the steps the middleware chain takes for such a request run here as the same calls
// (request id and log line, metrics, API-Version, token and permission, X-Read-Source). Anything
// else goes to the app untouched: a miss, a body, If-None-Match, X-Min-Change-Seq, `api_version=`,
// an unknown token or a missing permission (the app answers those as always).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Express, RequestHandler } from 'express';
import { RESOURCES, resourcePath } from '../engine/schema/registry.js';
import type { ResourceDef } from '../engine/schema/types.js';
import { allows } from '../storage/service/tokens.js';
import { acceptedVersion, negotiate } from './api-version.js';
import { hasBody, permissionFor, tokenMatch } from './auth.js';
import type { AppContext } from './context.js';
import { pageKey, sendJson } from './page-cache.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Each list path as the app mounts it (and its aliases), spelled as registered. */
const LIST_PATHS: ReadonlyMap<string, ResourceDef> = new Map(RESOURCES.flatMap((r) => [resourcePath(r), ...(r.alsoAt ?? [])].map((p) => [p, r] as const)));

const noop = () => undefined;

/** What the app's first middlewares do to every request (metrics, request id and log), in order. */
export interface DoorSteps { readonly metrics: RequestHandler; readonly logging: RequestHandler }

/** The server's request handler: cached list pages at the door, everything else to `app`. */
export function listDoor(ctx: AppContext, app: Express, steps: DoorSteps): Handler {
  if (!ctx.pages.enabled || !ctx.storage.memoryRead) return app;
  const replicated = ctx.storage.replicaLag !== undefined;
  const level = ctx.config.netboxApiLevel;
  const view = new Map([...LIST_PATHS.values()].map((r) => [r, permissionFor(r, 'view')]));

  /** The kept page this request would be answered with now, or undefined. */
  const pageFor = (req: IncomingMessage, r: ResourceDef, version: string) => {
    const state = ctx.storage.memoryRead!(r.name);
    if (!state) return undefined;
    // The scheme as Express's req.protocol gives it (no proxy is trusted).
    const scheme = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
    return ctx.pages.get(pageKey(version, scheme, req.headers.host, req.url!), state.gen);
  };

  return (req, res) => {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const r = req.method === 'GET' ? LIST_PATHS.get(q < 0 ? url : url.slice(0, q)) : undefined;
    const h = req.headers;
    if (!r || h['if-none-match'] !== undefined || h['x-min-change-seq'] !== undefined || hasBody(req) || (q >= 0 && url.includes('api_version', q))) { app(req, res); return; }
    const n = negotiate(level, acceptedVersion(h.accept), undefined);
    const key = tokenMatch(h.authorization)?.[1];
    if (!n.ok || !key || !pageFor(req, r, n.version)) { app(req, res); return; }
    ctx.tokens.authenticate(key).then((principal) => {
      // Looked up again after the token check: a write may have come meanwhile.
      const page = principal && allows(principal, view.get(r)!) ? pageFor(req, r, n.version) : undefined;
      if (!page) { app(req, res); return; }
      const ex = req as IncomingMessage & { app?: Express; originalUrl?: string };
      ex.app = app;              // the metrics label is read from the app's routes
      ex.originalUrl = url;
      steps.metrics(req as never, res as never, noop);
      steps.logging(req as never, res as never, noop);
      res.setHeader('API-Version', n.version);
      if (replicated) res.setHeader('X-Read-Source', 'replica');
      sendJson(res, page);
    }, () => app(req, res));
  };
}
