// What server/app.ts mounts: the document (built once), its /openapi.json + /docs router and the
// request validator for the lifecycle routes.
export { buildOpenApiDocument } from './build-document.js';
export { docsRouter } from './docs-router.js';
export { validateRequests } from './validate-requests.js';
export type { OpenApiDocument } from './types.js';
