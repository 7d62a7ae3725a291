// The OpenAPI 3.1 document, generated once at start from the schema registry (inventory resources,
// their fields and filters) and the route tables of inventory, tokens and lifecycle.
import { INVENTORY_RESOURCES } from '../routes/inventory.js';
import { inventorySchemas } from './inventory-schemas.js';
import { inventoryPaths, inventoryTag, OPTIONS_SCHEMA, tokenPaths, tokenSchemas } from './inventory-paths.js';
import { lifecyclePaths } from './lifecycle-paths.js';
import { lifecycleSchemas } from './lifecycle-schemas.js';
import { json, ref, type OpenApiDocument, type PathItem } from './types.js';

export interface DocumentOptions { readonly apiVersion: string; readonly maxPageSize: number }

const DESCRIPTION = [
  'Network inventory (Nautobot-style list endpoints with `field`, `field__lookup` and `cf_<name>[__<lookup>]` filters) and an entity lifecycle API.',
  '',
  'Every `/api` request needs `Authorization: Token <key>`; each operation names the permission it needs in `x-permission`.',
  'In this page, press **Authorize** and enter the key (the `Token ` prefix is added when missing).',
].join('\n');

function metaPaths(): Record<string, PathItem> {
  return {
    '/api/': { get: { operationId: 'apiRoot', summary: 'Links to the API apps (no token needed)', tags: ['meta'], security: [], responses: { 200: json({ type: 'object', additionalProperties: { type: 'string', format: 'uri' } }, 'App name -> URL') } } },
    '/api/status/': { get: { operationId: 'apiStatus', summary: 'API version and storage kind (no token needed)', tags: ['meta'], security: [], responses: { 200: json({ type: 'object', properties: { 'api-version': { type: 'string' }, storage: { type: 'string' } } }, 'Status') } } },
  };
}

export function buildOpenApiDocument(opts: DocumentOptions): OpenApiDocument {
  const paths: Record<string, PathItem> = { ...metaPaths() };
  for (const r of INVENTORY_RESOURCES) Object.assign(paths, inventoryPaths(r, opts.maxPageSize));
  Object.assign(paths, tokenPaths(), lifecyclePaths(opts.maxPageSize));
  return {
    openapi: '3.1.0',
    info: { title: 'netinv: network inventory and entity lifecycle API', version: opts.apiVersion, description: DESCRIPTION },
    tags: [
      { name: 'lifecycle/machines', description: 'Versioned state machine definitions' },
      { name: 'lifecycle/entities', description: 'Entities held at a state of a machine; events move them' },
      ...INVENTORY_RESOURCES.map(inventoryTag),
      { name: 'users/tokens', description: 'API tokens' },
      { name: 'meta', description: 'Service information' },
    ],
    paths,
    components: {
      schemas: { ...inventorySchemas(INVENTORY_RESOURCES), OptionsMetadata: OPTIONS_SCHEMA, ...tokenSchemas(), ...lifecycleSchemas() },
      securitySchemes: { Token: { type: 'apiKey', in: 'header', name: 'Authorization', description: '`Token <key>`' } },
      responses: {
        Unauthorized: { description: 'Missing or unknown token', headers: { 'WWW-Authenticate': { description: '`Token`', schema: { type: 'string' } } }, content: { 'application/json': { schema: ref('Error') } } },
        Forbidden: json(ref('Error'), 'The token lacks the permission named in `x-permission`'),
        NotFound: json(ref('Error'), 'No such object'),
        FieldErrors: json(ref('FieldErrors'), 'Invalid input: one key per bad field or parameter'),
      },
    },
    security: [{ Token: [] }],
  };
}
