// The Express app factory: JSON parsing, inventory and token routes, JSON 404s and 405s, error mapping.
import express, { type Express } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listDoor } from './list-door.js';
import { resource, resourcePath } from '../engine/schema/registry.js';
import { apiVersion } from './api-version.js';
import type { AppContext } from './context.js';
import { errorHandler } from './errors.js';
import { notFound } from './not-found.js';
import { yamlBody } from './yaml-body.js';
import { jsonBodiesOnly } from './json-bodies.js';
import { INVENTORY_RESOURCES, inventoryRouter } from './routes/inventory.js';
import { tokensRouter } from './routes/tokens.js';
import { authenticationCheckRoute } from './routes/authentication-check.js';
import { usersResourceRouter } from './routes/users.js';
import { PROVISION_PATH, provisionRoute } from './routes/provision.js';
import { jobsRouter } from './routes/jobs.js';
import { changeStreamRouter } from './routes/change-stream.js';
import { allocationRouter } from './routes/allocation.js';
import { apiTreeRoutes } from './routes/api-root.js';
import { bodyDepthLimit, LIMITS, urlLimits } from './limits.js';
import { authenticateBeforeBody, hasBody } from './auth.js';
import { healthRoutes, recording, requestRecorder } from './observability.js';
import { Metrics } from './metrics/index.js';
import { changeContext } from './change-context.js';
import { lifecycleRouter } from './routes/lifecycle.js';
import { buildOpenApiDocument, docsRouter, validateRequests } from './openapi/index.js';
import { uiRouter } from './ui/router.js';
import { GRAPHQL_PATHS, graphqlRouter } from './routes/graphql.js';
import { importBody } from './transfer/import.js';

/** The Express app, and the server's handler: the app behind the cached-list door (list-door.ts). */
export function createApp(ctx: AppContext): {
  app: Express;
  handler: (req: IncomingMessage, res: ServerResponse) => void;
} {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.set('etag', false); // no hash of every body: single objects tag their version, lists tag on If-None-Match
  const metrics = new Metrics(ctx.storage, app, ctx.pages);
  const record = requestRecorder(metrics.http, ctx.requestLog);
  app.use(recording(record)); // counts and times every request by route pattern; request id and log line
  app.use(urlLimits);
  app.use(apiVersion(ctx.config.netboxApiLevel)); // API-Version on every answer; Accept: …; version=1.3
  // What reads and checks a request body runs only for a request that carries one (reads do not).
  const bodies = express.Router();
  bodies.use(authenticateBeforeBody(ctx.tokens));
  bodies.use(
    express.json({ limit: LIMITS.bodyBytes, strict: false, type: ['application/json', 'application/*+json'] }),
  );
  bodies.post(['/api/v1/machines', '/api/v1/machines/'], ...yamlBody());
  bodies.post(
    INVENTORY_RESOURCES.flatMap((r) => [resourcePath(r), ...(r.alsoAt ?? [])]),
    importBody(),
  ); // CSV / YAML
  bodies.use(jsonBodiesOnly); // 415 for a write body no parser read
  bodies.use(bodyDepthLimit);
  app.post(PROVISION_PATH, ...provisionRoute(ctx)); // no token: a username and password (a small body)
  app.use((req, res, next) => {
    if (hasBody(req)) bodies(req, res, next);
    else next();
  });
  healthRoutes(app, ctx.storage);
  app.get('/metrics', metrics.route); // Prometheus text, no token (as /health)

  app.use(changeContext(ctx.storage)); // who writes, for which request: the change records; X-Change-Seq
  const changes = resource('object_change'); // its /stream before the generic router takes it for an {id}
  app.use([resourcePath(changes), ...(changes.alsoAt ?? [])], changeStreamRouter(ctx));
  for (const r of INVENTORY_RESOURCES) app.use([resourcePath(r), ...(r.alsoAt ?? [])], inventoryRouter(ctx, r));
  app.use(resourcePath(resource('prefix')), allocationRouter(ctx)); // {id}/available-prefixes/, {id}/available-ips/
  app.use('/api/users/tokens/', tokensRouter(ctx));
  authenticationCheckRoute(app, ctx);
  for (const name of ['user', 'group', 'object_permission'] as const)
    app.use(resourcePath(resource(name)), usersResourceRouter(ctx, name));
  app.use('/api/core/jobs/', jobsRouter(ctx)); // background imports (?background=true)
  app.use([...GRAPHQL_PATHS], graphqlRouter(ctx)); // /graphql/ (NetBox), /api/graphql/ (Nautobot)
  const openapi = buildOpenApiDocument({
    apiVersion: ctx.config.netboxApiLevel,
    maxPageSize: ctx.config.maxPageSize,
    maxMachineStates: ctx.config.maxMachineStates,
    ids: ctx.storage.ids,
  });
  app.use(docsRouter(openapi), uiRouter()); // /openapi.json, /api/schema/, /docs, /ui/
  apiTreeRoutes(app, ctx, openapi); // /api/, /api/<app>/, /api/status/
  app.use(validateRequests(openapi, ctx.tokens)); // lifecycle bodies checked against the document
  app.use('/api/v1', lifecycleRouter(ctx));

  app.use(notFound(openapi));
  app.use(errorHandler(ctx.log));
  return { app, handler: listDoor(ctx, app, record) };
}
