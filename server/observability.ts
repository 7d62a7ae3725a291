// Structured request logs (pino) with a request id echoed in `X-Request-Id`; /health and /ready.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Express, RequestHandler } from 'express';
import pino from 'pino';
import type { Storage } from '../storage/types.js';
import type { Logger } from './context.js';
import type { HttpMetrics, ObservedRequest } from './metrics/http-metrics.js';

export type RequestLogger = pino.Logger;

/**
 * Written asynchronously (pino's sonic-boom destination with sync: false): a request never waits
 * for its log line to reach stdout. What is still buffered when the process exits is written then,
 * synchronously (pino registers that on the exit event), so a graceful stop loses no line.
 */
export function createRequestLogger(level: string): RequestLogger {
  return pino({ level, base: undefined }, pino.destination({ dest: 1, sync: false }));
}

/** Adapts pino to the small Logger the rest of the server uses. */
export function asLogger(p: RequestLogger): Logger {
  return { info: (m) => p.info(m), warn: (m) => p.warn(m), error: (m) => p.error(m) };
}

const ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/** What every request gets first, whoever answers it: its metrics, its request id and log line. */
export type RecordRequest = (req: ObservedRequest, res: ServerResponse) => void;

/**
 * The one recording of a request, on Node's own request and response: the app's first middleware
 * (`recording`) and the cached-list door (list-door.ts) both call it. Always sets the request id;
 * logs one structured line per request when a logger is given.
 */
export function requestRecorder(metrics: HttpMetrics, log: RequestLogger | undefined): RecordRequest {
  return (req, res) => {
    metrics.observe(req, res);
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && ID_RE.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    if (!log) return;
    const t0 = process.hrtime.bigint();
    res.on('finish', () => {
      const url = (req.originalUrl ?? req.url ?? '').slice(0, 512);
      log.info(
        { req_id: id, method: req.method, url, status: res.statusCode, ms: Number(process.hrtime.bigint() - t0) / 1e6 },
        'request',
      );
    });
  };
}

/** `record` as the app's first middleware. */
export const recording =
  (record: RecordRequest): RequestHandler =>
  (req, res, next) => {
    record(req, res);
    next();
  };

export function healthRoutes(app: Express, storage: Storage): void {
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/ready', async (_req, res) => {
    try {
      await storage.get('tag', '00000000-0000-4000-8000-000000000000');
      res.json({ status: 'ready', storage: storage.kind });
    } catch (e) {
      res.status(503).json({ status: 'unavailable', storage: storage.kind, detail: (e as Error).message });
    }
  });
}
