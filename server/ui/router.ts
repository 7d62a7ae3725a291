// The web UI under /ui/: the page and style sheet from ui/static/ in the source tree, the bundle that
// `npm run build` writes (esbuild, dist/ui-bundle/) beside them. Nothing is fetched from elsewhere.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** The first of `candidates` (relative to this compiled file) holding `file`. */
function dirWith(file: string, candidates: readonly string[], what: string): string {
  const dirs = candidates.map(here);
  const found = dirs.find((d) => existsSync(`${d}${file}`));
  if (!found) throw new Error(`${what} not found (looked in ${dirs.join(', ')}); run npm run build`);
  return found;
}

export function uiStaticDir(): string {
  return dirWith('index.html', ['../../../ui/static/', '../../ui/static/'], 'web UI page');
}

export function uiBundleDir(): string {
  return dirWith('app.js', ['../../ui-bundle/'], 'web UI bundle');
}

export function uiRouter(): Router {
  const router = Router();
  const files = uiStaticDir();
  const bundle = uiBundleDir();
  router.get('/', (_req, res) => { res.redirect(302, '/ui/'); });
  // non-strict routing matches /ui/ here too: only the bare /ui is redirected
  router.get('/ui', (req, res, next) => { if (req.path === '/ui') res.redirect(301, '/ui/'); else next(); });
  router.use('/ui', (_req, res, next) => { res.set('Cache-Control', 'no-cache'); next(); },
    express.static(files, { index: 'index.html', redirect: false }),
    express.static(bundle, { index: false, redirect: false, fallthrough: false }));
  return router;
}
