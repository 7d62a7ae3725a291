// Each request's write context (storage/change-log/write-context.ts): its X-Request-Id and the
// token's name go into the change records its writes make, and a write's answer carries
// X-Change-Seq: the highest seq it wrote, or the current one when it wrote nothing.
import type { RequestHandler } from 'express';
import { withWriteContext, type WriteContext } from '../storage/change-log/write-context.js';
import type { Storage } from '../storage/types.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function changeContext(storage: Storage): RequestHandler {
  return (req, res, next) => {
    const wc: WriteContext = { requestId: String(res.get('X-Request-Id')), userName: () => req.principal?.name ?? 'anonymous', seq: null, memo: new Map() };
    if (WRITES.has(req.method)) {
      // The header is set as the answer ends: a write that took no number reads the counter then.
      const end = res.end.bind(res) as (...a: unknown[]) => typeof res;
      res.end = ((...args: unknown[]) => {
        if (res.headersSent) return end(...args);
        if (wc.seq !== null) { res.setHeader('X-Change-Seq', String(wc.seq)); return end(...args); }
        storage.changeSeq().then(
          (n) => { if (!res.headersSent) res.setHeader('X-Change-Seq', String(n)); },
          () => undefined,
        ).finally(() => end(...args));
        return res;
      }) as typeof res.end;
    }
    withWriteContext(wc, next);
  };
}
