// What route handlers share: built once at start.
import type { HeavyQueryGate } from './heavy-queries.js';
import type { PlanCache } from '../engine/plan/plan-cache.js';
import type { Inventory } from '../app/inventory.js';
import type { Tokens } from '../app/tokens.js';
import type { Lifecycle } from '../app/lifecycle.js';
import type { Storage } from '../storage/types.js';
import type { ChangeFeed } from '../storage/change-log/change-feed.js';
import type { ChangeRetention } from '../app/change-retention.js';
import type { Config } from './config/defaults.js';
import type { RequestLogger } from './observability.js';
import type { PageCache } from './page-cache.js';
import type { GraphqlService } from '../app/graphql/run-graphql.js';
import type { JobRunner } from '../app/jobs/job-runner.js';

export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export interface AppContext {
  readonly config: Config;
  readonly storage: Storage;
  readonly inventory: Inventory;
  readonly tokens: Tokens;
  readonly lifecycle: Lifecycle;
  /** The change log to follow (event stream, webhooks). */
  readonly changes: ChangeFeed;
  /** Aborted when the server closes: open event streams end. */
  readonly closing?: AbortSignal;
  /** Prunes the change log as configured; pins keep what is still needed. */
  readonly retention: ChangeRetention;
  readonly planCache: PlanCache;
  /** List pages read from this process's memory, kept as sent (PAGE_CACHE_MB). */
  readonly pages: PageCache;
  /** Caps heavy list queries running at once (MAX_HEAVY_QUERIES). */
  readonly heavy: HeavyQueryGate;
  /** GraphQL's schema and executor (/graphql/, /api/graphql/), built once. */
  readonly graphql: GraphqlService;
  /** Runs background jobs (`?background=true` imports), one at a time. */
  readonly jobs: JobRunner;
  readonly log: Logger;
  /** Structured request log; absent in tests that want silence. */
  readonly requestLog?: RequestLogger;
}
