// The web UI under /ui/: the page and style sheet from ui/static/ in the source tree, the bundle that
// `npm run build` writes (esbuild, dist/ui-bundle/) beside them. Nothing is fetched from elsewhere.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** The first of `candidates` (relative to this compiled file) holding `file`, or null. */
function dirWith(file: string, candidates: readonly string[]): string | null {
  return candidates.map(here).find((d) => existsSync(`${d}${file}`)) ?? null;
}

export function uiStaticDir(): string {
  const found = dirWith('index.html', ['../../../ui/static/', '../../ui/static/']);
  if (!found) throw new Error('web UI page not found (ui/static/index.html)');
  return found;
}

/** Where the bundle is; null when only tsc has run (the API works, the UI says what to run). */
export function uiBundleDir(): string | null {
  return dirWith('app.js', ['../../ui-bundle/']);
}

const NOT_BUILT =
  "document.getElementById('app').textContent = 'The web UI is not built: run npm run build (tsc and esbuild).';\n";

export function uiRouter(): Router {
  const router = Router();
  const files = uiStaticDir();
  const bundle = uiBundleDir();
  const bundleFiles = bundle
    ? express.static(bundle, { index: false, redirect: false, fallthrough: false })
    : (req: express.Request, res: express.Response) => {
        if (req.path === '/app.js') res.type('js').send(NOT_BUILT);
        else res.status(404).end();
      };
  router.get('/', (_req, res) => {
    res.redirect(302, '/ui/');
  });
  // non-strict routing matches /ui/ here too: only the bare /ui is redirected
  router.get('/ui', (req, res, next) => {
    if (req.path === '/ui') res.redirect(301, '/ui/');
    else next();
  });
  router.use(
    '/ui',
    (_req, res, next) => {
      res.set('Cache-Control', 'no-cache');
      next();
    },
    express.static(files, { index: 'index.html', redirect: false }),
    bundleFiles,
  );
  return router;
}
