// GET /openapi.json (no auth: the document is public) and the Swagger UI page at /docs, with its
// assets served from the installed swagger-ui-dist (an allow-list: the dist's own index.html and
// initializer point at the petstore demo and must not be reachable).
import { createRequire } from 'node:module';
import express, { Router } from 'express';
import { DOCS_HTML, DOCS_INIT_JS } from './docs-page.js';
import type { OpenApiDocument } from './types.js';

const require = createRequire(import.meta.url);
/** swagger-ui-dist's getAbsoluteFSPath, without loading its browser bundle into Node. */
export const swaggerUiDir = (): string => (require('swagger-ui-dist/absolute-path.js') as () => string)();

const ASSETS = new Set([
  'swagger-ui.css', 'swagger-ui.css.map', 'swagger-ui-bundle.js', 'swagger-ui-bundle.js.map',
  'swagger-ui-standalone-preset.js', 'swagger-ui-standalone-preset.js.map', 'favicon-16x16.png', 'favicon-32x32.png',
]);

export function docsRouter(doc: OpenApiDocument): Router {
  const router = Router();
  const body = JSON.stringify(doc);
  router.get('/openapi.json', (_req, res) => { res.type('application/json').set('Cache-Control', 'no-cache').send(body); });
  router.get(['/docs', '/docs/'], (_req, res) => { res.type('html').send(DOCS_HTML); });
  router.get('/docs/init.js', (_req, res) => { res.type('text/javascript').send(DOCS_INIT_JS); });
  router.use('/docs/assets', (req, res, next) => {
    if (!ASSETS.has(req.path.replace(/^\//, ''))) { res.status(404).json({ detail: `Not found: ${req.method} ${req.originalUrl}` }); return; }
    next();
  }, express.static(swaggerUiDir(), { index: false, fallthrough: false, maxAge: '1h' }));
  return router;
}
