// The web UI: static HTML, CSS and ES modules under /ui/ (no build step). The files live in
// server/ui/static/ in the source tree; the compiled router (dist/server/ui/) finds them there.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';

export function uiStaticDir(): string {
  const candidates = ['./static/', '../../../server/ui/static/'].map((p) => fileURLToPath(new URL(p, import.meta.url)));
  const found = candidates.find((d) => existsSync(`${d}index.html`));
  if (!found) throw new Error(`web UI files not found (looked in ${candidates.join(', ')})`);
  return found;
}

export function uiRouter(): Router {
  const router = Router();
  const dir = uiStaticDir();
  router.get('/', (_req, res) => { res.redirect(302, '/ui/'); });
  // non-strict routing matches /ui/ here too: only the bare /ui is redirected
  router.get('/ui', (req, res, next) => { if (req.path === '/ui') res.redirect(301, '/ui/'); else next(); });
  router.use('/ui', (_req, res, next) => { res.set('Cache-Control', 'no-cache'); next(); },
    express.static(dir, { index: 'index.html', redirect: false, fallthrough: false }));
  return router;
}
