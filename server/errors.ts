// The one place that maps failures to HTTP statuses and bodies: a service's refusal by its kind
// (400 {field: [messages]}, 404/409/412 {detail, code}), malformed JSON and oversize bodies, 503
// when storage is unreachable, never a bare 500 page.
import type { ErrorRequestHandler, Response } from 'express';
import type { Refused, RefusalKind } from '../app/errors.js';
import {
  CommitUnknown,
  JournalWriteFailed,
  QueryAborted,
  QueryRefused,
  QueryTimeout,
  StorageUnavailable,
} from '../storage/types.js';

/** The HTTP status of each kind of refusal a service returns (app/errors.ts). */
export const STATUS: Readonly<Record<RefusalKind, number>> = {
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  precondition_failed: 412,
  too_large: 413,
  key_reused: 422,
};

/** Answers a service's refusal: its kind's status, its errors as the body. */
export function sendRefused(res: Response, out: Refused<unknown>): void {
  res.status(STATUS[out.kind]).json(out.errors);
}

/** Failures of reading a request body (body-parser's error types). */
const BODY_ERRORS: Readonly<Record<string, { status: number; code: string; detail: (message: string) => string }>> = {
  'entity.parse.failed': { status: 400, code: 'invalid_json', detail: (m) => `JSON parse error - ${m}` },
  'entity.too.large': { status: 413, code: 'body_too_large', detail: () => 'Request body too large (limit 1 MiB).' },
  'encoding.unsupported': { status: 415, code: 'unsupported_encoding', detail: (m) => m },
  'charset.unsupported': { status: 415, code: 'unsupported_charset', detail: (m) => m },
};

export function errorHandler(log: { error(msg: string): void; warn(msg: string): void }): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    const e = err as { type?: string; status?: number; message?: string; body?: unknown };
    if (res.headersSent) return;
    if (err instanceof QueryAborted) {
      res.end();
      return;
    } // the client has gone: nothing to say
    const body = e.type ? BODY_ERRORS[e.type] : undefined;
    if (body) {
      res.status(body.status).json({ detail: body.detail(e.message ?? ''), code: body.code });
      return;
    }
    if (err instanceof QueryTimeout) {
      res.status(503).json({
        detail:
          `The query ran longer than its ${err.budgetMs} ms time budget (QUERY_TIMEOUT_MS) and was ` +
          `cancelled; narrow the filters.`,
        code: 'query_timeout',
      });
      return;
    }
    if (err instanceof QueryRefused) {
      res.status(400).json({ detail: err.message, code: 'unsupported_pattern' });
      return;
    }
    if (err instanceof JournalWriteFailed) {
      res
        .status(err.code === 'insufficient_storage' ? 507 : 503)
        .json({ detail: `${err.message}. Free space or fix the storage, then try again.`, code: err.code });
      return;
    }
    if (err instanceof CommitUnknown) {
      log.warn(`write outcome unknown: ${err.message}`);
      res.status(503).json({
        detail:
          'The connection to the database was lost while the write committed, and whether it did cannot be told ' +
          'now. Retry with the same Idempotency-Key to get its real outcome.',
        code: 'commit_unknown',
      });
      return;
    }
    if (err instanceof StorageUnavailable) {
      res.status(503).json({ detail: 'Storage is unavailable; try again shortly.', code: 'storage_unavailable' });
      return;
    }
    if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
      res.status(e.status).json({ detail: e.message, code: 'bad_request' });
      return;
    }
    // The client left and its request went on (a server stopping with requests in flight reaches a
    // closed pool): nobody to answer, one line rather than a stack.
    if (res.destroyed) {
      log.warn(`error after the client left: ${(err as Error)?.message ?? String(err)}`);
      return;
    }
    log.error(`unhandled error: ${(err as Error)?.stack ?? String(err)}`);
    res.status(500).json({ detail: 'Internal server error.', code: 'internal_error' });
  };
}
