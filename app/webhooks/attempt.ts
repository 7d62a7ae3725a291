// One attempt of a webhook delivery: claimed by a compare-and-swap on its row, sent, and recorded
// (delivered, pending again after a backoff, or failed once out of attempts). Whatever the attempt
// throws after its claim is a failed attempt with its error recorded.
import { changeJson } from '../../engine/schema/id-json.js';
import { CHANGE_RESOURCE } from '../../engine/changes/change-records.js';
import { backoffMs, renderBody, requestHeaders } from '../../engine/changes/webhook-payload.js';
import type { HostRule } from '../../engine/changes/webhook-targets.js';
import { StorageConflict, versionOf, type Row, type Storage } from '../../storage/types.js';
import type { SendWebhook } from './request.js';
import { DELIVERY_HEADER } from './chain.js';
import { DELIVERY } from './deliveries.js';
import type { WebhookDeliveryRow } from '../../engine/schema/resources/webhook.js';

export { DELIVERY };

export interface DispatcherOptions {
  /** Attempts per delivery before it is marked failed. */
  readonly maxAttempts: number;
  /** Delay after the first failed attempt (ms); doubled after each further one, up to `retryMaxMs`. */
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
  /** Time limit of one request (ms). */
  readonly timeoutMs: number;
  /**
   * Request slots, shared evenly by the enabled webhooks (at least one each): one webhook's requests never take
   * another's.
   */
  readonly concurrency?: number;
  /** WEBHOOK_ALLOWED_HOSTS: where requests may go (empty: anywhere). */
  readonly allowedHosts?: readonly HostRule[];
  /** WEBHOOK_KEEP_RESPONSE: keep the start of each answer's body in response_excerpt. */
  readonly keepResponse?: boolean;
  /** WEBHOOK_MAX_CHAIN: a change reached through more webhook deliveries than this is not sent. */
  readonly maxChain?: number;
  /** Makes one request (a test may give one that throws). */
  readonly send?: SendWebhook;
  /** How often pending deliveries are looked for when nothing woke the sender (ms). */
  readonly pollMs?: number;
  /** Pending deliveries read per window (SEND_ROUNDS windows per webhook and pass). */
  readonly sendWindow?: number;
  readonly log?: (message: string) => void;
}

/** The start of a request and of an answer kept with the delivery (characters). */
const EXCERPT = 1000;

export class DeliveryAttempts {
  constructor(
    private readonly storage: Storage,
    private readonly opts: Required<DispatcherOptions>,
  ) {}

  /**
   * Claims the delivery (compare-and-swap), sends it, and records how it went. Whatever the attempt
   * throws after its claim is a failed attempt with its error recorded; a delivery that has had its
   * attempts (a process died after claiming it, say) fails without another.
   */
  async run(w: Row, d: WebhookDeliveryRow): Promise<void> {
    const started = Date.now();
    if (d.attempts >= this.opts.maxAttempts) {
      await this.record(d, {
        status: 'failed',
        next_attempt_at: null,
        error:
          `No answer recorded after ${d.attempts} attempts (WEBHOOK_MAX_ATTEMPTS is ` + `${this.opts.maxAttempts}).`,
      });
      return;
    }
    const lease = new Date(started + this.opts.timeoutMs * 2 + 1000).toISOString();
    const claimed: WebhookDeliveryRow = {
      ...d,
      attempts: d.attempts + 1,
      last_attempt_at: new Date(started).toISOString(),
      next_attempt_at: lease,
      last_updated: new Date(started).toISOString(),
      version: versionOf(d) + 1,
    };
    try {
      await this.storage.apply([{ op: 'update', resource: DELIVERY, row: claimed, expectVersion: versionOf(d) }]);
    } catch (e) {
      if (e instanceof StorageConflict) return; // another process has it, or it is gone with its webhook
      throw e;
    }
    let result: Partial<Row>;
    try {
      result = await this.send(w, claimed);
    } catch (e) {
      result = this.failure(claimed, { status: null, error: (e as Error)?.message || String(e) });
    }
    await this.record(claimed, result);
  }

  /** Makes the request of a claimed delivery; how it went, as the row's fields. */
  private async send(w: Row, d: WebhookDeliveryRow): Promise<Partial<Row>> {
    const change = await this.storage.get(CHANGE_RESOURCE, d.change);
    if (!change)
      return { status: 'failed', next_attempt_at: null, error: 'The change record is no longer in the log.' };
    // The body carries ids as answers do (numbers in an integer store).
    const shown = changeJson(change, this.storage.ids);
    const body = renderBody(w, shown);
    const rendered = requestHeaders(w, shown, body);
    // A request that can never go fails at once: a retry would render the same.
    if (!rendered.ok)
      return {
        status: 'failed',
        next_attempt_at: null,
        response_status: null,
        error: rendered.reason.slice(0, EXCERPT),
        request_excerpt: body.slice(0, EXCERPT),
      };
    const answer = await this.opts.send(
      String(w.payload_url),
      String(w.http_method || 'POST'),
      { ...rendered.headers, [DELIVERY_HEADER]: String(d.id) },
      body,
      {
        timeoutMs: this.opts.timeoutMs,
        verifyTls: w.ssl_verification !== false,
        excerpt: this.opts.keepResponse ? EXCERPT : 0,
        allowedHosts: this.opts.allowedHosts,
      },
    );
    const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
    if (ok)
      return {
        status: 'delivered',
        next_attempt_at: null,
        response_status: answer.status,
        error: '',
        request_excerpt: body.slice(0, EXCERPT),
        response_excerpt: answer.body,
      };
    if (answer.refused)
      return {
        status: 'failed',
        next_attempt_at: null,
        response_status: null,
        error: answer.error.slice(0, EXCERPT),
        request_excerpt: body.slice(0, EXCERPT),
      };
    return {
      ...this.failure(d, { status: answer.status, error: answer.error || `HTTP ${answer.status}` }),
      request_excerpt: body.slice(0, EXCERPT),
      response_excerpt: answer.body,
    };
  }

  /** A failed attempt: tried again after a backoff, or failed once it was the last one. */
  private failure(d: WebhookDeliveryRow, f: { status: number | null; error: string }): Partial<Row> {
    const attempts = d.attempts;
    const gaveUp = attempts >= this.opts.maxAttempts;
    return {
      status: gaveUp ? 'failed' : 'pending',
      next_attempt_at: gaveUp
        ? null
        : new Date(Date.now() + backoffMs(attempts, this.opts.retryBaseMs, this.opts.retryMaxMs)).toISOString(),
      response_status: f.status,
      error: f.error.slice(0, EXCERPT),
    };
  }

  /** Writes how an attempt went (compare-and-swap on the row as claimed). */
  private async record(d: Row, result: Partial<Row>): Promise<void> {
    const done: Row = { ...d, ...result, last_updated: new Date().toISOString(), version: versionOf(d) + 1 };
    try {
      await this.storage.apply([{ op: 'update', resource: DELIVERY, row: done, expectVersion: versionOf(d) }]);
    } catch (e) {
      // Deleted with its webhook, or taken over after the lease ran out (the other attempt records itself).
      if (!(e instanceof StorageConflict)) throw e;
    }
  }
}
