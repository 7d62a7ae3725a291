// The API tree as NetBox has it: `/api/` links every app (and `/api/status/`), each app's index
// (`/api/dcim/`, `/api/v1/` for the lifecycle API) links its list endpoints, all read from the
// OpenAPI document's paths; `/api/status/` says what runs. No token needed, as for the document.
import fs from 'node:fs';
import type { Express } from 'express';
import type { AppContext } from '../context.js';
import { netboxVersion } from '../api-version.js';
import { apiApps } from '../openapi/meta-paths.js';
import type { OpenApiDocument } from '../openapi/types.js';
import { baseUrl } from './request-url.js';

/** The product's package.json, seen from where this module runs: dist/server/routes/. */
const PRODUCT = JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** name -> URL, by name (as NetBox lists them). */
const links = (entries: [string, string][]): Record<string, string> =>
  Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));

export function apiTreeRoutes(app: Express, ctx: AppContext, doc: OpenApiDocument): void {
  const apps = apiApps(doc.paths);
  app.get('/api/', (req, res) => {
    const base = baseUrl(req);
    res.json(
      links([
        ...[...apps].map(([name, a]): [string, string] => [name, base + a.path]),
        ['status', `${base}/api/status/`],
      ]),
    );
  });
  for (const a of apps.values()) {
    app.get(a.path, (req, res) => {
      res.json(links([...a.endpoints].map(([name, path]) => [name, baseUrl(req) + path])));
    });
  }

  app.get('/api/status/', async (_req, res) => {
    const [storageVersion, machines, lag] = await Promise.all([
      ctx.storage.serverVersion(),
      ctx.lifecycle.machinePage(1, 0),
      ctx.storage.replicaLag?.() ?? null,
    ]);
    res.json({
      'netbox-version': netboxVersion(ctx.config.netboxApiLevel),
      'api-version': res.get('API-Version'),
      'netinv-version': PRODUCT.version,
      'node-version': process.versions.node,
      storage: ctx.storage.kind,
      'storage-version': storageVersion ?? PRODUCT.version,
      'installed-machines': machines.count,
      replica_lag_seq: lag?.seq ?? null,
      replica_lag_ms: lag?.ms ?? null,
      plugins: {},
    });
  });
}
