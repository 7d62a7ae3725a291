// The service's own paths: the API tree (`/api/` and one index per app, as NetBox has them),
// `/api/status/`, and this document where NetBox clients fetch it (`/api/schema/`, `/api/docs/`).
// The apps and their endpoints are read from the document's other paths, which the registry and
// the route tables generate: a resource added to the registry is listed without another edit.
import { json, pascal, type JsonSchema, type Operation, type PathItem } from './types.js';

export interface ApiApp {
  /** `/api/dcim/`, `/api/v1/` (the lifecycle API) */
  readonly path: string;
  /** endpoint name (`sites`) -> its list path (`/api/dcim/sites/`) */
  readonly endpoints: ReadonlyMap<string, string>;
}

/**
 * Apps by name: every path without parameters whose GET is tagged `<app>/<endpoint>` (as each
 * resource's operations are) is a list endpoint of that app, which lives at the path's parent.
 */
export function apiApps(paths: Readonly<Record<string, PathItem>>): ReadonlyMap<string, ApiApp> {
  const apps = new Map<string, { path: string; endpoints: Map<string, string> }>();
  for (const [path, item] of Object.entries(paths)) {
    const [app, endpoint] = (item.get?.tags[0] ?? '').split('/');
    const m = /^(\/api\/(?:[^/{}]+\/)*)([^/{}]+)\/?$/.exec(path);
    if (!endpoint || !m || streams(item)) continue;
    const a = apps.get(app) ?? { path: m[1], endpoints: new Map() };
    if (a.path !== m[1]) throw new Error(`openapi: app ${app} has endpoints under ${a.path} and ${m[1]}`);
    apps.set(app, a);
    a.endpoints.set(m[2], path);
  }
  return new Map([...apps].sort(([a], [b]) => a.localeCompare(b)));
}

/** An event stream served under an endpoint (`/api/extras/object-changes/stream`) is not one itself. */
const streams = (item: PathItem): boolean => {
  const ok = item.get?.responses[200];
  return !!ok && 'content' in ok && !!ok.content?.['text/event-stream'];
};

const LINKS: JsonSchema = { type: 'object', additionalProperties: { type: 'string', format: 'uri' } };
const text = (description: string, examples?: string[]): JsonSchema => ({
  type: 'string',
  description,
  ...(examples ? { examples } : {}),
});

const STATUS_PROPERTIES: Record<string, JsonSchema> = {
  'netbox-version': text('The NetBox API level followed, as NetBox reports its version (NETBOX_API_LEVEL + `.0`)', [
    '3.7.0',
  ]),
  'api-version': text('The API version of this answer (as its `API-Version` header)', ['3.7', '1.3']),
  'netinv-version': text('The product version'),
  'node-version': text('The Node.js version running the service'),
  storage: { type: 'string', enum: ['memory', 'postgres', 'mysql'] },
  'storage-version': text(
    "The database server's version text (`SHOW server_version`, `VERSION()`); memory: the product's",
  ),
  'installed-machines': {
    type: 'integer',
    description: 'State machine definitions installed (each name and version once)',
  },
  replica_lag_seq: {
    type: ['integer', 'null'],
    description:
      "READ_REPLICA: change records the database has that this process's replica has not applied yet (null: " +
      'no replica)',
  },
  replica_lag_ms: {
    type: ['integer', 'null'],
    description:
      'READ_REPLICA: how long ago the first record not yet applied here was written, in ms (0 when none; ' +
      'null: no replica)',
  },
  plugins: { type: 'object', description: 'Always empty (NetBox lists its plugins here)' },
};
const STATUS_SCHEMA: JsonSchema = {
  type: 'object',
  required: Object.keys(STATUS_PROPERTIES),
  properties: STATUS_PROPERTIES,
};

const formatParameter = (value: string): Partial<Operation> => ({
  parameters: [{ name: 'format', in: 'query', required: false, schema: { type: 'string', enum: [value] } }],
});

const meta = (
  operationId: string,
  summary: string,
  responses: Operation['responses'],
  extra: Partial<Operation> = {},
): PathItem => ({
  get: { operationId, summary: `${summary} (no token needed)`, tags: ['meta'], security: [], responses, ...extra },
});

export function metaPaths(apps: ReadonlyMap<string, ApiApp>): Record<string, PathItem> {
  const paths: Record<string, PathItem> = {
    '/api/': meta('apiRoot', 'Links to the API apps and /api/status/', { 200: json(LINKS, 'App name -> URL') }),
    '/api/status/': meta('apiStatus', 'Versions of the product, Node.js and the storage; installed machines', {
      200: json(STATUS_SCHEMA, 'Status'),
    }),
    '/api/schema/': meta(
      'apiSchema',
      'This OpenAPI document, where NetBox clients fetch it',
      {
        200: json({ type: 'object' }, 'The document, as JSON (NetBox answers YAML without `format=json`)'),
        404: json({ type: 'object' }, 'Another `format`'),
      },
      formatParameter('json'),
    ),
    '/api/docs/': meta(
      'apiDocs',
      'With `format=openapi`: this document as JSON (where pynetbox fetches it); else to /docs',
      {
        200: json({ type: 'object' }, 'The document (`format=openapi`)'),
        302: { description: 'Without `format=openapi`: a redirect to the interactive docs at /docs' },
      },
      formatParameter('openapi'),
    ),
    '/metrics': meta(
      'metrics',
      'Prometheus metrics of this process: requests and latency per route, change log and replica position, memory',
      {
        200: {
          description: 'Prometheus text exposition format 0.0.4 (docs/observability.md lists the metrics)',
          content: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } },
        },
      },
    ),
  };
  for (const [name, app] of apps)
    paths[app.path] = meta(`api${pascal(name)}Root`, `Links to the ${name} endpoints`, {
      200: json(LINKS, 'Endpoint name -> URL'),
    });
  return paths;
}
