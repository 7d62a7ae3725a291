// Requests no route answered. A path the OpenAPI document has under other methods is a 405 with
// an Allow header (as DRF answers); anything else a 404. Both carry a code, as every error does.
import type { RequestHandler } from 'express';
import type { OpenApiDocument } from './openapi/index.js';
import { templateRegex } from './openapi/validate-requests.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function notFound(doc: OpenApiDocument): RequestHandler {
  const known = Object.entries(doc.paths).map(([template, item]) => {
    const methods: string[] = METHODS.filter((m) => item[m]).map((m) => m.toUpperCase());
    if (methods.includes('GET')) methods.push('HEAD');
    methods.push('OPTIONS');
    return { pattern: templateRegex(template).pattern, methods };
  });
  return (req, res) => {
    const path = known.find((k) => k.pattern.test(req.path));
    if (path && !path.methods.includes(req.method)) {
      res
        .set('Allow', path.methods.join(', '))
        .status(405)
        .json({ detail: `Method "${req.method}" not allowed.`, code: 'method_not_allowed' });
      return;
    }
    res.status(404).json({ detail: `Not found: ${req.method} ${req.path}`, code: 'not_found' });
  };
}
