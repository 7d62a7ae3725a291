// Each request's write context (storage/change-log/write-context.ts): its X-Request-Id and the
// token's name go into the change records its writes make, and a write's answer carries
// X-Change-Seq: the highest seq it wrote, or the current one when it wrote nothing. With a replica
// (READ_REPLICA), a read may name the seq it needs (X-Min-Change-Seq) and learns where it was
// answered from (X-Read-Source); a write's own reads go to the database. A write made in answer to a
// webhook delivery (X-Netinv-Webhook naming one of this store's) names it in its change records.
import type { RequestHandler } from 'express';
import { withWriteContext, type WriteContext } from '../storage/change-log/write-context.js';
import type { Storage } from '../storage/types.js';
import { answeredDelivery, DELIVERY_HEADER } from '../app/webhooks/chain.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function changeContext(storage: Storage): RequestHandler {
  // Only a store with a replica says where a read was answered from: elsewhere a read's answer is left as it is.
  const replicated = storage.replicaLag !== undefined;
  return (req, res, next) => {
    const write = WRITES.has(req.method);
    const min = req.get('x-min-change-seq');
    if (min !== undefined && !/^\d{1,15}$/.test(min.trim())) {
      res.status(400).json({
        detail: 'X-Min-Change-Seq: a change seq (a whole number, as X-Change-Seq gives it) is expected.',
        code: 'invalid_header',
      });
      return;
    }
    const wc: WriteContext = {
      requestId: String(res.get('X-Request-Id')),
      userName: () => req.principal?.name ?? 'anonymous',
      seq: null,
      memo: new Map(),
      primary: write,
      minSeq: min === undefined ? undefined : Number(min),
      // Where a replica store answered from (X-Read-Source: replica, or database when it fell back),
      // set as the storage decides: replacing res.end on every read cost a fifth of a replica's rate.
      onReadSource:
        !write && replicated
          ? (source) => {
              if (!res.headersSent) res.setHeader('X-Read-Source', source);
            }
          : undefined,
    };
    if (write) {
      // The header is set as the answer ends: a write that took no number reads the counter then.
      const end = res.end.bind(res) as (...a: unknown[]) => typeof res;
      res.end = ((...args: unknown[]) => {
        if (res.headersSent) return end(...args);
        if (wc.seq !== null) {
          res.setHeader('X-Change-Seq', String(wc.seq));
          return end(...args);
        }
        storage
          .changeSeq()
          .then(
            (n) => {
              if (!res.headersSent) res.setHeader('X-Change-Seq', String(n));
            },
            () => undefined,
          )
          .finally(() => end(...args));
        return res;
      }) as typeof res.end;
    }
    const answers = write ? req.get(DELIVERY_HEADER) : undefined;
    if (answers === undefined) {
      withWriteContext(wc, next);
      return;
    }
    // Looked up inside the context: a write's reads go to the database.
    withWriteContext(wc, () =>
      answeredDelivery(storage, answers).then((id) => {
        wc.webhookDelivery = id;
        next();
      }, next),
    );
  };
}
