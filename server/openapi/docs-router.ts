// GET /openapi.json, /api/schema/ and /api/docs/?format=openapi (no auth: the document is public)
// and the Swagger UI page at /docs, with its assets served from the installed swagger-ui-dist (an
// allow-list: the dist's own index.html and initializer point at the petstore demo and must not be
// reachable).
import { createRequire } from 'node:module';
import express, { Router, type Response } from 'express';
import { DOCS_HTML, DOCS_INIT_JS } from './docs-page.js';
import type { OpenApiDocument } from './types.js';

const require = createRequire(import.meta.url);
/** swagger-ui-dist's getAbsoluteFSPath, without loading its browser bundle into Node. */
export const swaggerUiDir = (): string => (require('swagger-ui-dist/absolute-path.js') as () => string)();

const ASSETS = new Set([
  'swagger-ui.css',
  'swagger-ui.css.map',
  'swagger-ui-bundle.js',
  'swagger-ui-bundle.js.map',
  'swagger-ui-standalone-preset.js',
  'swagger-ui-standalone-preset.js.map',
  'favicon-16x16.png',
  'favicon-32x32.png',
]);

export function docsRouter(doc: OpenApiDocument): Router {
  const router = Router();
  const body = JSON.stringify(doc);
  const sendJson = (res: Response) => {
    res.type('application/json').set('Cache-Control', 'no-cache').send(body);
  };
  router.get('/openapi.json', (_req, res) => sendJson(res));
  // Where NetBox clients fetch it: NetBox 3.5+ at /api/schema/?format=json (here JSON also by
  // default, where NetBox gives YAML: drawing ~500 KB of YAML would hold the event loop ~1 s),
  // pynetbox and Ansible at /api/docs/?format=openapi.
  router.get('/api/schema/', (req, res) => {
    if ((req.query.format ?? 'json') === 'json') sendJson(res);
    else
      res.status(404).json({
        detail: `No format "${String(req.query.format)}": the document is JSON (format=json).`,
        code: 'not_found',
      });
  });
  router.get('/api/docs/', (req, res) => {
    if (req.query.format === 'openapi') sendJson(res);
    else res.redirect(302, '/docs');
  });
  router.get(['/docs', '/docs/'], (_req, res) => {
    res.type('html').send(DOCS_HTML);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('text/javascript').send(DOCS_INIT_JS);
  });
  router.use(
    '/docs/assets',
    (req, res, next) => {
      if (!ASSETS.has(req.path.replace(/^\//, ''))) {
        res.status(404).json({ detail: `Not found: ${req.method} ${req.originalUrl}` });
        return;
      }
      next();
    },
    express.static(swaggerUiDir(), { index: false, fallthrough: false, maxAge: '1h' }),
  );
  return router;
}
