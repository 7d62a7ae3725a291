// GET /metrics: the Prometheus text (format 0.0.4) of this process. No token is needed, as for
// /health: a scraper usually has none, and the text holds no object data, no token and no URL,
// only counts by route pattern, timings, the change log's position and process figures.
import type { Express, RequestHandler } from 'express';
import type { Storage } from '../../storage/types.js';
import type { PageCache } from '../page-cache.js';
import { HttpMetrics } from './http-metrics.js';
import { processMetrics } from './process-metrics.js';
import { CONTENT_TYPE, Registry } from './registry.js';

export class Metrics {
  readonly registry = new Registry();
  readonly http: HttpMetrics;

  /** `app`: the app whose routes label requests; `pages`: the list pages kept (PAGE_CACHE_MB), if any. */
  constructor(storage: Storage, app: Express, pages?: PageCache) {
    this.http = new HttpMetrics(this.registry, app);
    storageMetrics(this.registry, storage);
    if (pages) pageCacheMetrics(this.registry, pages);
    processMetrics(this.registry);
  }

  readonly route: RequestHandler = async (_req, res) => {
    const body = await this.registry.text();
    res.set('Content-Type', CONTENT_TYPE).set('Cache-Control', 'no-store').send(body);
  };
}

/** Kept list pages sent again, whether at the door or by the app (the count is the cache's own). */
function pageCacheMetrics(registry: Registry, pages: PageCache): void {
  const hits = registry
    .counter(
      'netinv_page_cache_hits_total',
      'List requests answered with a kept page (PAGE_CACHE_MB), not read and serialized again',
    )
    .child();
  registry.collect(() => {
    hits.value = pages.hits;
  });
}

/**
 * The change log's position, and with READ_REPLICA the replica's: what it applied and how far it is
 * behind. The replica gauges exist only where a replica runs (no series otherwise, so `absent()`
 * tells a process without one). A storage that cannot answer leaves them NaN for that scrape.
 */
/** Finer than the request buckets where replication lag lives (a few ms to a few hundred). */
export const APPLY_LAG_BUCKETS: readonly number[] = [
  0.001, 0.0025, 0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5, 10,
];

/** From a free connection (tens of µs) to the POOL_WAIT_TIMEOUT_MS default (5 s) and past it. */
export const POOL_WAIT_BUCKETS: readonly number[] = [
  0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

function storageMetrics(registry: Registry, storage: Storage): void {
  const seq = registry
    .gauge('netinv_change_seq', 'The last change seq the storage handed out (0 before the first change)')
    .child();
  registry.collect(async () => {
    seq.set(await storage.changeSeq().catch(() => NaN));
  });
  if (storage.onPoolWait) {
    // Every acquisition of a pooled database connection: a pool spent on other work shows here
    // before requests time out.
    const wait = registry
      .histogram(
        'netinv_db_pool_wait_seconds',
        'Time a statement or transaction waited for a pooled database connection, in seconds (bounded by ' +
          'POOL_WAIT_TIMEOUT_MS)',
        [],
        POOL_WAIT_BUCKETS,
      )
      .child();
    const timeouts = registry
      .counter(
        'netinv_db_pool_wait_timeouts_total',
        'Waits for a pooled database connection given up after POOL_WAIT_TIMEOUT_MS (each answered 503)',
      )
      .child();
    storage.onPoolWait((s, timedOut) => {
      wait.observe(s);
      if (timedOut) timeouts.inc();
    });
  }
  if (!storage.replicaLag) return;
  const lagSeq = registry
    .gauge(
      'netinv_replica_lag_seq',
      "READ_REPLICA: change records the database has that this process's replica has not applied yet",
    )
    .child();
  const lagMs = registry
    .gauge(
      'netinv_replica_lag_ms',
      'READ_REPLICA: how long ago the first change record not yet applied here was written, in ms (0 when none)',
    )
    .child();
  const applied = registry
    .gauge('netinv_replica_applied_seq', "READ_REPLICA: the last change seq this process's replica applied")
    .child();
  // Each record's age when this replica applied it: from its numbering (by any process) to its rows being here.
  const applyLag = registry
    .histogram(
      'netinv_replica_apply_lag_seconds',
      "READ_REPLICA: time from a change record's numbering (in its write's transaction, just before the " +
        "commit) to this process's replica applying it, in seconds",
      [],
      APPLY_LAG_BUCKETS,
    )
    .child();
  storage.onReplicaApplied?.((ms) => applyLag.observe(Math.max(0, ms) / 1000));
  registry.collect(async () => {
    const lag = await storage.replicaLag!().catch(() => null);
    lagSeq.set(lag?.seq ?? NaN);
    lagMs.set(lag?.ms ?? NaN);
    applied.set(lag?.applied ?? NaN);
  });
}
