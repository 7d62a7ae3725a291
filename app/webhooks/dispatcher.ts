// The webhook outbox. The change log is the queue: a planner follows it from a cursor and, for each
// record and each webhook that wanted it when it was written (enabled, its types and actions then,
// as the webhooks' own change records tell), writes a pending delivery row, advancing the
// cursor in the same batch (compare-and-swap on the cursor row's version: two processes never plan
// one record twice, a crash never loses a planned one). A sender posts pending deliveries, at most
// one at a time per webhook and object, oldest first (a later change of an object waits while an
// earlier one is pending), each claimed by a compare-and-swap on its row (another process skips
// it; a claim that dies with its process expires after a lease), retried with doubling delays up to
// a bound, then failed. Delivery is at least once: a request whose answer was not recorded is sent
// again, so receivers deduplicate by `change_id` / `seq`.
// Isolation and safety: each enabled webhook has its own share of the request slots (a receiver
// that never answers holds only its own); anything an attempt throws is a failed attempt, recorded,
// and the attempt bound is hard; a request that can never go (a header value HTTP cannot carry, a
// target outside WEBHOOK_ALLOWED_HOSTS) fails at once. Each request names its delivery in
// X-Netinv-Webhook; a write made with that header names it in its change record, and a change
// reached through more than WEBHOOK_MAX_CHAIN such deliveries is planned as `skipped`, not sent.
import { randomUUID } from 'node:crypto';
import { and, cmp, fk, not, TRUE } from '../../engine/plan/nodes.js';
import { CHANGE_RESOURCE } from '../../engine/changes/change-records.js';
import { wants, webhookAt, type WebhookVersion } from '../../engine/changes/webhook-payload.js';
import type { ChangeFeed } from '../../storage/change-log/change-feed.js';
import { SYSTEM_USER, withWriteContext } from '../../storage/change-log/write-context.js';
import { StorageConflict, versionOf, type Row, type Storage, type WriteOp } from '../../storage/types.js';
import { sendWebhook } from './request.js';
import { DELIVERY, DeliveryAttempts, type DispatcherOptions } from './attempt.js';
import { CURSOR, CURSOR_ID, pinnedSeq, pruneDeliveries } from './deliveries.js';
import { chainOf, skippedReason } from './chain.js';
import { webhookCursor, webhookDelivery } from '../../engine/schema/resources/webhook.js';
import { rowAs } from '../../engine/schema/row-types.js';
import { objectChange, type ObjectChangeRow } from '../../engine/schema/resources/object-change.js';

export type { DispatcherOptions };
export { CURSOR_ID };

const PLAN_BATCH = 500;
/** Windows of pending deliveries read per webhook and pass, each leaving out the objects of the ones before. */
const SEND_ROUNDS = 4;
/** A cursor advanced past records that planned nothing is written at most this often (ms). */
const LAZY_CURSOR_MS = 2000;
/** Pause after a batch that was not full, so records written meanwhile come in the next one (ms). */
const PLAN_GATHER_MS = 25;
/** The same pause while no webhook is enabled or changed: under a stream of writes the planner then
 * only reads the webhooks now and then, not three statements every PLAN_GATHER_MS (ms). */
const PLAN_IDLE_MS = 250;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });

export class WebhookDispatcher {
  private readonly stopping = new AbortController();
  private loops: Promise<void>[] = [];
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Requests in flight by webhook id: each webhook keeps to its share of the slots. */
  private readonly busy = new Map<string, number>();
  /** Wakes the sender (a plan wrote deliveries, a send finished). */
  private kick: (() => void) | null = null;
  private kicked = false;
  private cursor: { after: number; version: number; persisted: number; savedAt: number } | null = null;
  private readonly opts: Required<DispatcherOptions>;
  private readonly attempts: DeliveryAttempts;

  constructor(
    private readonly storage: Storage,
    private readonly feed: ChangeFeed,
    opts: DispatcherOptions,
  ) {
    this.opts = {
      concurrency: 8,
      pollMs: 1000,
      sendWindow: 200,
      log: () => {},
      allowedHosts: [],
      keepResponse: false,
      maxChain: 3,
      send: sendWebhook,
      ...opts,
    };
    this.attempts = new DeliveryAttempts(storage, this.opts);
  }

  start(): void {
    // Its reads go to the database, never to a replica that may lag (READ_REPLICA): a webhook a
    // replica does not hold yet would miss the deliveries it should get.
    withWriteContext(
      { requestId: 'webhook-dispatcher', userName: () => SYSTEM_USER, seq: null, memo: new Map(), primary: true },
      () => {
        this.loops = [this.forever('planning', () => this.planLoop()), this.forever('sending', () => this.sendLoop())];
      },
    );
  }

  /** Stops planning and sending; requests in flight are let finish (their rows written) for up to their time limit. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.wake();
    await Promise.all(this.loops);
    await Promise.all(this.inFlight.values());
  }

  /** The lowest change seq still needed (webhook-deliveries.ts). */
  pinnedSeq(): Promise<number | null> {
    return pinnedSeq(this.storage);
  }

  /** Deletes the finished deliveries whose change record retention has pruned; how many (webhook-deliveries.ts). */
  pruneDeliveries(): Promise<number> {
    return pruneDeliveries(this.storage);
  }

  private async forever(what: string, loop: () => Promise<void>): Promise<void> {
    while (!this.stopping.signal.aborted) {
      try {
        await loop();
      } catch (e) {
        if (this.stopping.signal.aborted) return;
        this.opts.log(`webhooks: ${what} failed, tried again in 1 s: ${(e as Error).message}`);
        this.cursor = null;
        await sleep(1000, this.stopping.signal);
      }
    }
  }

  private wake(): void {
    this.kicked = true;
    this.kick?.();
  }

  // ---- planning -------------------------------------------------------------------------------

  /** The cursor as stored, created at the current end of the log on a first start (no history is invented). */
  private async loadCursor(): Promise<NonNullable<WebhookDispatcher['cursor']>> {
    for (;;) {
      const stored = await this.storage.get(CURSOR, CURSOR_ID);
      const row = stored && rowAs(webhookCursor, stored);
      if (row)
        return {
          after: row.after_seq,
          version: versionOf(row),
          persisted: row.after_seq,
          savedAt: Date.now(),
        };
      const now = new Date().toISOString();
      const after = await this.storage.changeSeq();
      try {
        await this.storage.apply([
          {
            op: 'create',
            resource: CURSOR,
            row: { id: CURSOR_ID, created: now, last_updated: now, version: 1, after_seq: after },
          },
        ]);
      } catch (e) {
        if (!(e instanceof StorageConflict)) throw e; // another process made it: read it
      }
    }
  }

  private async planLoop(): Promise<void> {
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      this.cursor ??= await this.loadCursor();
      const cur = this.cursor;
      // The end of the log before the webhooks: a webhook made or changed after this read has its
      // change record past `end`, so the records up to `end` are planned against what they saw.
      const end = await this.feed.current();
      if (end <= cur.after) {
        await this.saveLazyCursor(cur);
        await this.feed.waitAfter(cur.after, signal);
        continue;
      }
      // The webhooks, then their change records: a change a row read does not show yet is in them.
      // With none enabled now and none changed since the cursor, nothing wants the records: they are not read.
      const webhooks = await this.allWebhooks();
      const versions = await this.webhookVersions(cur.after);
      const idle = !webhooks.some((w) => w.enabled === true) && !versions.size;
      const read = idle ? [] : await this.feed.read(cur.after, PLAN_BATCH);
      const records = read.map((r) => rowAs(objectChange, r)).filter((r) => r.seq <= end);
      const last = records.length ? records[records.length - 1].seq : end;
      const deliveries = this.plan(records, webhooks, versions, await chainOf(this.storage, records));
      if (!deliveries.length) {
        // Nothing to write: the cursor moves on in memory, written now and then (records that
        // planned nothing plan nothing again after a crash).
        cur.after = last;
        if (Date.now() - cur.savedAt >= LAZY_CURSOR_MS) await this.saveLazyCursor(cur);
      } else if (await this.writePlan(cur, last, deliveries)) this.wake();
      // Under a stream of writes, records are taken a few at a time rather than one by one.
      if (records.length < PLAN_BATCH) await sleep(idle ? PLAN_IDLE_MS : PLAN_GATHER_MS, signal);
    }
  }

  private async enabledWebhooks(): Promise<readonly Row[]> {
    return (
      await this.storage.find(
        'webhook',
        cmp('enabled', 'boolean', 'eq', false, [true]),
        { limit: 10_000, offset: 0, ordering: [{ field: 'id', desc: false }] },
        { noCount: true },
      )
    ).rows;
  }

  private async allWebhooks(): Promise<readonly Row[]> {
    return (
      await this.storage.find(
        'webhook',
        TRUE,
        { limit: 10_000, offset: 0, ordering: [{ field: 'id', desc: false }] },
        { noCount: true },
      )
    ).rows;
  }

  /** The change records of webhooks after the cursor, by webhook, in seq order: what each was like at each record. */
  private async webhookVersions(after: number): Promise<Map<string, WebhookVersion[]>> {
    const { rows } = await this.storage.find(
      CHANGE_RESOURCE,
      and([
        cmp('seq', 'number', 'gt', false, [after]),
        cmp('changed_object_type', 'string', 'eq', false, ['extras.webhook']),
      ]),
      { limit: 100_000, offset: 0, ordering: [{ field: 'seq', desc: false }] },
      { noCount: true },
    );
    const out = new Map<string, WebhookVersion[]>();
    for (const c of rows.map((r) => rowAs(objectChange, r))) {
      const v: WebhookVersion = {
        seq: c.seq,
        before: c.action === 'create' ? null : (c.prechange_data as Row | null),
        after: c.action === 'delete' ? null : (c.object_data as Row | null),
      };
      const list = out.get(c.changed_object_id);
      if (list) list.push(v);
      else out.set(c.changed_object_id, [v]);
    }
    return out;
  }

  /**
   * Delivery rows for the records (seq order): one per record and webhook that wanted it when the
   * record was written (made by then, enabled, its types and actions as they were), as its change
   * records tell; only webhooks that still exist get one. A record reached through a chain of more
   * than maxChain deliveries (`chains`: by record id) gets `skipped` rows, sent never.
   */
  private plan(
    records: readonly ObjectChangeRow[],
    webhooks: readonly Row[],
    versions: ReadonlyMap<string, readonly WebhookVersion[]>,
    chains: ReadonlyMap<string, number>,
  ): Row[] {
    const now = new Date().toISOString();
    const out: Row[] = [];
    for (const rec of records)
      for (const w of webhooks) {
        const then = webhookAt(w, versions.get(w.id) ?? [], rec.seq);
        if (!then || then.enabled !== true || !wants(then, rec)) continue;
        const chain = chains.get(rec.id) ?? 0;
        const skipped = chain > this.opts.maxChain;
        out.push({
          id: randomUUID(),
          created: now,
          last_updated: now,
          version: 1,
          webhook: w.id,
          change: rec.id,
          seq: rec.seq,
          action: rec.action,
          changed_object_type: rec.changed_object_type,
          changed_object_id: rec.changed_object_id,
          status: skipped ? 'skipped' : 'pending',
          attempts: 0,
          next_attempt_at: skipped ? null : now,
          last_attempt_at: null,
          response_status: null,
          error: skipped ? skippedReason(chain, this.opts.maxChain) : '',
          request_excerpt: '',
          response_excerpt: '',
          chain,
        });
      }
    return out;
  }

  /**
   * The deliveries and the cursor past them in one batch; false when another process moved the cursor first (then
   * re-read).
   */
  private async writePlan(
    cur: NonNullable<WebhookDispatcher['cursor']>,
    last: number,
    deliveries: readonly Row[],
  ): Promise<boolean> {
    const ops: WriteOp[] = deliveries.map((row) => ({ op: 'create', resource: DELIVERY, row }));
    ops.push(this.cursorWrite(cur, last));
    try {
      await this.storage.apply(ops);
    } catch (e) {
      // A delivery's webhook deleted meanwhile (its reference refused) or the cursor moved: plan again from the
      // stored cursor.
      if (!(e instanceof StorageConflict)) throw e;
      this.cursor = null;
      return false;
    }
    this.cursor = { after: last, version: cur.version + 1, persisted: last, savedAt: Date.now() };
    return true;
  }

  private cursorWrite(cur: NonNullable<WebhookDispatcher['cursor']>, after: number): WriteOp {
    const now = new Date().toISOString();
    return {
      op: 'update',
      resource: CURSOR,
      row: { id: CURSOR_ID, created: now, last_updated: now, version: cur.version + 1, after_seq: after },
      expectVersion: cur.version,
    };
  }

  private async saveLazyCursor(cur: NonNullable<WebhookDispatcher['cursor']>): Promise<void> {
    if (cur.after === cur.persisted) return;
    try {
      await this.storage.apply([this.cursorWrite(cur, cur.after)]);
      this.cursor = { after: cur.after, version: cur.version + 1, persisted: cur.after, savedAt: Date.now() };
    } catch (e) {
      if (!(e instanceof StorageConflict)) throw e;
      this.cursor = null;
    }
  }

  // ---- sending --------------------------------------------------------------------------------

  private async sendLoop(): Promise<void> {
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      this.kicked = false;
      const nextDue = await this.sendPass();
      if (this.kicked || signal.aborted) continue;
      const wait = Math.max(10, Math.min(this.opts.pollMs, nextDue - Date.now()));
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, wait);
        function done() {
          clearTimeout(t);
          resolve();
        }
        this.kick = done;
      });
      this.kick = null;
    }
  }

  /**
   * Starts the due deliveries that head their (webhook, object) queue and are not in flight; the
   * time the next one falls due (Infinity: none waiting).
   */
  private async sendPass(): Promise<number> {
    let nextDue = Infinity;
    const now = Date.now();
    const enabled = await this.enabledWebhooks();
    const share = Math.max(1, Math.floor(this.opts.concurrency / Math.max(1, enabled.length)));
    for (const w of enabled) {
      // A disabled webhook's pending deliveries wait until it is enabled again. Read oldest first
      // in a few windows, each leaving out the objects already seen: one object with many waiting
      // (a receiver that was down while it changed often) does not hide the others behind it.
      const pending = and([
        fk('webhook', 'webhook', [w.id], false, true),
        cmp('status', 'string', 'eq', false, ['pending']),
      ]);
      const seen = new Set<string>();
      let full = (this.busy.get(w.id) ?? 0) >= share;
      for (let round = 0; round < SEND_ROUNDS && !full; round++) {
        const plan = seen.size
          ? and([pending, not(cmp('changed_object_id', 'string', 'eq', false, [...seen]))])
          : pending;
        const { rows } = await this.storage.find(
          DELIVERY,
          plan,
          {
            limit: this.opts.sendWindow,
            offset: 0,
            ordering: [
              { field: 'seq', desc: false },
              { field: 'id', desc: false },
            ],
          },
          { noCount: true },
        );
        const heads = new Set<string>();
        for (const d of rows.map((x) => rowAs(webhookDelivery, x))) {
          seen.add(String(d.changed_object_id));
          // The first pending delivery of an object is its head; the later ones wait for it.
          const key = `${w.id}\u0000${String(d.changed_object_type)}\u0000${String(d.changed_object_id)}`;
          if (heads.has(key)) continue;
          heads.add(key);
          if (this.inFlight.has(key)) continue;
          const due = d.next_attempt_at ? Date.parse(d.next_attempt_at) : now;
          if (due > now) {
            nextDue = Math.min(nextDue, due);
            continue;
          }
          // This webhook's share is taken: its other deliveries wait (a request that ends wakes the
          // sender), the other webhooks' go on with their own shares.
          if ((this.busy.get(w.id) ?? 0) >= share) {
            full = true;
            break;
          }
          this.busy.set(w.id, (this.busy.get(w.id) ?? 0) + 1);
          const p = this.attempts
            .run(w, d)
            .catch((e) => this.opts.log(`webhooks: delivery ${d.id}: ${(e as Error).message}`))
            .finally(() => {
              this.inFlight.delete(key);
              const n = (this.busy.get(w.id) ?? 1) - 1;
              if (n > 0) this.busy.set(w.id, n);
              else this.busy.delete(w.id);
              this.wake();
            });
          this.inFlight.set(key, p);
        }
        if (rows.length < this.opts.sendWindow) break;
      }
    }
    return nextDue;
  }
}
