// Who is writing and for which request: what a change record names (user_name, request_id), and
// the highest `seq` the request's writes took (X-Change-Seq). The HTTP layer opens a context per
// request; writes outside one (a start's configured token, the demo data) are the system's.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { timeOrderedId } from '../time-ordered-id.js';
import type { ChangeMeta } from '../../engine/changes/change-records.js';

export interface WriteContext {
  readonly requestId: string;
  /** Read when a write happens: authentication may come after the context opened. */
  userName(): string;
  /** Highest change seq the request's writes took. */
  seq: number | null;
  /** Values read once per request (custom field definitions on a shared database). */
  readonly memo: Map<string, unknown>;
  /** A write request: its reads go to the database, the authority, never to a replica. */
  readonly primary?: boolean;
  /** X-Min-Change-Seq: a replica answers only once it has applied this seq. */
  readonly minSeq?: number;
  /** Where the request's reads were answered ('replica' or 'database'), when a replica runs. */
  readSource?: 'replica' | 'database';
  /** Told each time readSource changes (the HTTP layer sets X-Read-Source). */
  readonly onReadSource?: (source: 'replica' | 'database') => void;
  /**
   * The webhook delivery the request answers (its X-Netinv-Webhook named one of this store's): its
   * change records name it.
   */
  webhookDelivery?: string | null;
}

/** Notes where a read of the current request was answered; once 'database', it stays (the answer holds both). */
export function noteReadSource(scope: WriteContext | undefined, source: 'replica' | 'database'): void {
  if (!scope || scope.readSource === source || scope.readSource === 'database') return;
  scope.readSource = source;
  scope.onReadSource?.(source);
}

/** user_name of writes made outside any request. */
export const SYSTEM_USER = 'system';

const current = new AsyncLocalStorage<WriteContext>();

export function withWriteContext<T>(ctx: WriteContext, fn: () => T): T {
  return current.run(ctx, fn);
}

export function writeContext(): WriteContext | undefined {
  return current.getStore();
}

/** The record fields of a write made now, in the current context. */
export function changeMeta(): ChangeMeta {
  const c = current.getStore();
  return {
    time: new Date().toISOString(),
    userName: c ? c.userName() : SYSTEM_USER,
    requestId: c ? c.requestId : randomUUID(),
    newId: timeOrderedId,
    webhookDelivery: c?.webhookDelivery ?? null,
  };
}

/** Notes a batch's highest seq on the request that wrote it. */
export function noteSeq(seq: number | null): void {
  const c = current.getStore();
  if (c && seq !== null && (c.seq === null || seq > c.seq)) c.seq = seq;
}
