// Waits for a pooled database connection: each acquisition's wait is reported (GET /metrics shows
// them as netinv_db_pool_wait_seconds) and bounded by POOL_WAIT_TIMEOUT_MS. A request that cannot
// get a connection in time answers 503 rather than queueing behind a pool spent on other work.
import { StorageUnavailable } from '../types.js';

export type PoolWaitListener = (seconds: number, timedOut: boolean) => void;

/**
 * How long a connection is waited for by default (pg-pool's connectionTimeoutMillis was 5 s before
 * it was a setting).
 */
export const DEFAULT_POOL_WAIT_MS = 5000;

export class PoolWaits {
  private readonly listeners: PoolWaitListener[] = [];

  constructor(readonly limitMs: number = DEFAULT_POOL_WAIT_MS) {}

  on(fn: PoolWaitListener): void {
    this.listeners.push(fn);
  }

  observe(ms: number, timedOut: boolean): void {
    for (const fn of this.listeners) fn(Math.max(0, ms) / 1000, timedOut);
  }

  /** The error a wait past the limit gives (StorageUnavailable: 503, as a lost database). */
  timeout(where: string): StorageUnavailable {
    return new StorageUnavailable(
      `no connection to ${where} free within ${this.limitMs} ms (POOL_WAIT_TIMEOUT_MS): ` +
        'every pooled connection is busy',
    );
  }

  /**
   * `take()` (a pool's acquisition), timed and given up after limitMs: a connection that comes
   * after that is handed back at once through `giveBack`.
   */
  bounded<C>(take: () => Promise<C>, giveBack: (c: C) => void, where: string): Promise<C> {
    const t0 = performance.now();
    return new Promise<C>((resolve, reject) => {
      let late = false;
      const timer = setTimeout(() => {
        late = true;
        this.observe(performance.now() - t0, true);
        reject(this.timeout(where));
      }, this.limitMs);
      take().then(
        (c) => {
          if (late) {
            giveBack(c);
            return;
          }
          clearTimeout(timer);
          this.observe(performance.now() - t0, false);
          resolve(c);
        },
        (e: unknown) => {
          if (late) return;
          clearTimeout(timer);
          this.observe(performance.now() - t0, false);
          reject(e);
        },
      );
    });
  }

  /**
   * `take()` timed where the pool bounds the wait itself (pg-pool): `isTimeout` tells its timeout
   * error, which becomes ours.
   */
  async timed<C>(take: () => Promise<C>, isTimeout: (e: unknown) => boolean, where: string): Promise<C> {
    const t0 = performance.now();
    try {
      const c = await take();
      this.observe(performance.now() - t0, false);
      return c;
    } catch (e) {
      const late = isTimeout(e);
      this.observe(performance.now() - t0, late);
      throw late ? this.timeout(where) : e;
    }
  }
}
