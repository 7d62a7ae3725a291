// Cached list pages answered before Express routes the request. A GET of a list URL whose page this
// process keeps (page-cache.ts) at its store's current generation needs none of the app's ~50 mount
// layers. The steps the app takes for such a request are the same functions called here: version
// negotiation (api-version.ts), the token and permission checks (auth.ts), the request's metrics, id
// and log line (observability.ts); then X-Read-Source. Anything else goes to the app untouched: a
// body, If-None-Match, X-Min-Change-Seq, `api_version=`, a version refused, an unknown token, a
// missing permission (the app answers those as always), or no page kept for this caller's scope.
import { acceptedExport } from './transfer/export.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { RESOURCES, resourcePath } from '../engine/schema/registry.js';
import type { ResourceDef } from '../engine/schema/types.js';
import { negotiateRequest } from './api-version.js';
import { checkToken, hasBody, permissionFor, refusal, viewScope } from './auth.js';
import type { AppContext } from './context.js';
import type { RecordRequest } from './observability.js';
import { pageKey, sendJson } from './page-cache.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Each list path as the app mounts it (and its aliases), spelled as registered, with its view permission. */
const LIST_PATHS: ReadonlyMap<string, { readonly r: ResourceDef; readonly view: string }> = new Map(
  RESOURCES.flatMap((r) =>
    [resourcePath(r), ...(r.alsoAt ?? [])].map((p) => [p, { r, view: permissionFor(r, 'view') }] as const),
  ),
);

/** The scheme as Express's req.protocol gives it (no proxy is trusted). */
const schemeOf = (s: Socket): string => ('encrypted' in s && s.encrypted ? 'https' : 'http');

/** The server's request handler: cached list pages at the door, everything else to `app`. */
export function listDoor(ctx: AppContext, app: Handler, record: RecordRequest): Handler {
  const read = ctx.storage.memoryRead?.bind(ctx.storage);
  if (!ctx.pages.enabled || !read) return app;
  const replicated = ctx.storage.replicaLag !== undefined;
  const level = ctx.config.netboxApiLevel;

  return (req, res) => {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const list = req.method === 'GET' ? LIST_PATHS.get(q < 0 ? url : url.slice(0, q)) : undefined;
    const h = req.headers;
    if (
      !list ||
      h['if-none-match'] !== undefined ||
      h['x-min-change-seq'] !== undefined ||
      acceptedExport(h.accept) !== null ||
      hasBody(req) ||
      (q >= 0 && url.includes('api_version', q))
    ) {
      app(req, res);
      return;
    }
    const n = negotiateRequest(level, h);
    if (!n.ok || !read(list.r.name)) {
      app(req, res);
      return;
    }
    checkToken(ctx.tokens, req).then(
      (who) => {
        if (!who.ok) {
          app(req, res);
          return;
        }
        req.principal = who.principal; // the app does not check the token again
        // The generation read after the token check: a write may have come meanwhile.
        const state = refusal(who.principal, list.view) ? undefined : read(list.r.name);
        const page =
          state &&
          ctx.pages.get(pageKey(viewScope(who.principal), n.version, schemeOf(req.socket), h.host, url), state.gen);
        if (!page) {
          app(req, res);
          return;
        }
        record(req, res);
        res.setHeader('API-Version', n.version);
        if (replicated) res.setHeader('X-Read-Source', 'replica');
        sendJson(res, page);
      },
      () => app(req, res),
    );
  };
}
