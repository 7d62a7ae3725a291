// The one place that maps failures to HTTP bodies: 400 {field: [messages]}, 404/409 {detail},
// malformed JSON and oversize bodies, 503 when storage is unreachable, never a bare 500 page.
import type { ErrorRequestHandler, Response } from 'express';
import { QueryAborted, QueryTimeout, StorageUnavailable } from '../storage/types.js';

export function sendWriteError(res: Response, status: number, errors: unknown): void {
  res.status(status).json(errors);
}

export function errorHandler(log: { error(msg: string): void }): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    const e = err as { type?: string; status?: number; message?: string; body?: unknown };
    if (res.headersSent) return;
    if (err instanceof QueryAborted) { res.end(); return; } // the client has gone: nothing to say
    if (e.type === 'entity.parse.failed') { res.status(400).json({ detail: `JSON parse error - ${e.message}` }); return; }
    if (e.type === 'entity.too.large') { res.status(413).json({ detail: 'Request body too large (limit 1 MiB).' }); return; }
    if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') { res.status(415).json({ detail: e.message }); return; }
    if (err instanceof QueryTimeout) {
      res.status(503).json({ detail: `The query ran longer than its ${err.budgetMs} ms time budget (QUERY_TIMEOUT_MS) and was cancelled; narrow the filters.`, code: 'query_timeout' });
      return;
    }
    if (err instanceof StorageUnavailable) { res.status(503).json({ detail: 'Storage is unavailable; try again shortly.', code: 'storage_unavailable' }); return; }
    if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) { res.status(e.status).json({ detail: e.message }); return; }
    log.error(`unhandled error: ${(err as Error)?.stack ?? String(err)}`);
    res.status(500).json({ detail: 'Internal server error.' });
  };
}
