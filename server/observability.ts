// Structured request logs (pino) with a request id echoed in `X-Request-Id`; /health and /ready.
import { randomUUID } from 'node:crypto';
import type { Express, RequestHandler } from 'express';
import pino from 'pino';
import type { Storage } from '../storage/types.js';
import type { Logger } from './context.js';

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

/** Always sets the request id; logs one structured line per request when a logger is given. */
export function requestLogging(log: RequestLogger | undefined): RequestHandler {
  return (req, res, next) => {
    // Plain Node calls: the cached-list door (list-door.ts) runs this before Express has seen the request.
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && ID_RE.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    if (!log) { next(); return; }
    const t0 = process.hrtime.bigint();
    res.on('finish', () => {
      log.info({ req_id: id, method: req.method, url: req.originalUrl.slice(0, 512), status: res.statusCode, ms: Number(process.hrtime.bigint() - t0) / 1e6 }, 'request');
    });
    next();
  };
}

export function healthRoutes(app: Express, storage: Storage): void {
  app.get('/health', (_req, res) => { res.json({ status: 'ok' }); });
  app.get('/ready', async (_req, res) => {
    try {
      await storage.get('tag', '00000000-0000-4000-8000-000000000000');
      res.json({ status: 'ready', storage: storage.kind });
    } catch (e) {
      res.status(503).json({ status: 'unavailable', storage: storage.kind, detail: (e as Error).message });
    }
  });
}
