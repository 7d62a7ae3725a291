// The Express app factory: JSON parsing, inventory and token routes, JSON 404s and 405s, error mapping.
import express, { type Express } from 'express';
import { resourcePath } from '../engine/schema/registry.js';
import type { AppContext } from './context.js';
import { errorHandler } from './errors.js';
import { notFound } from './not-found.js';
import { yamlBody } from './yaml-body.js';
import { INVENTORY_RESOURCES, inventoryRouter } from './routes/inventory.js';
import { tokensRouter } from './routes/tokens.js';
import { bodyDepthLimit, LIMITS, urlLimits } from './limits.js';
import { authenticateBeforeBody } from './auth.js';
import { healthRoutes, requestLogging } from './observability.js';
import { lifecycleRouter } from './routes/lifecycle.js';
import { buildOpenApiDocument, docsRouter, validateRequests } from './openapi/index.js';
import { uiRouter } from './ui/router.js';

export const API_VERSION = '1.3';

export function createApp(ctx: AppContext): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(requestLogging(ctx.requestLog));
  app.use(urlLimits);
  app.use(authenticateBeforeBody(ctx.tokens));
  app.use(express.json({ limit: LIMITS.bodyBytes, strict: false, type: ['application/json', 'application/*+json'] }));
  app.post(['/api/v1/machines', '/api/v1/machines/'], ...yamlBody());
  app.use(bodyDepthLimit);
  healthRoutes(app, ctx.storage);
  app.use((_req, res, next) => { res.set('API-Version', API_VERSION); next(); });

  app.get('/api/', (req, res) => {
    const base = `${req.protocol}://${req.get('host')}`;
    const apps = [...new Set(INVENTORY_RESOURCES.map((r) => r.app))];
    res.json(Object.fromEntries(apps.map((a) => [a, `${base}/api/${a}/`])));
  });
  app.get('/api/status/', (_req, res) => { res.json({ 'api-version': API_VERSION, storage: ctx.storage.kind }); });
  for (const r of INVENTORY_RESOURCES) app.use(resourcePath(r), inventoryRouter(ctx, r));
  app.use('/api/users/tokens/', tokensRouter(ctx));
  const openapi = buildOpenApiDocument({ apiVersion: API_VERSION, maxPageSize: ctx.config.maxPageSize });
  app.use(docsRouter(openapi), uiRouter());              // /openapi.json, /docs, /ui/
  app.use(validateRequests(openapi, ctx.tokens));        // lifecycle bodies checked against the document
  app.use('/api/v1', lifecycleRouter(ctx));

  app.use(notFound(openapi));
  app.use(errorHandler(ctx.log));
  return app;
}
