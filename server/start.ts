// Startup: config -> storage -> tokens -> demo data -> listening server. Used by main and tests.
import type { IdStyleName } from '../engine/schema/id-style.js';
import { createServer, type Server } from 'node:http';
import type { RequestLogger } from './observability.js';
import { PlanCache } from '../engine/plan/plan-cache.js';
import { PageCache } from './page-cache.js';
import { createStorage, StorageConfigError, withoutPassword } from '../storage/open-storage.js';
import { unfinishedImport } from '../storage/netbox-import/unfinished.js';
import { MemoryStorage } from '../storage/memory/memory-storage.js';
import { Inventory } from '../app/inventory.js';
import { Tokens } from '../app/tokens.js';
import { Lifecycle } from '../app/lifecycle.js';
import { ChangeFeed } from '../storage/change-log/change-feed.js';
import { WebhookDispatcher } from '../app/webhooks/dispatcher.js';
import { JobRunner } from '../app/jobs/job-runner.js';
import { ChangeRetention } from '../app/change-retention.js';
import { webhookTargetPolicy } from '../app/webhooks/target-check.js';
import { parseAllowedHosts } from '../engine/changes/webhook-targets.js';
import { parseNetworkList } from '../engine/net/client-address.js';
import { installMachineFiles } from './machine-files.js';
import { createApp } from './app.js';
import { HeavyQueryGate } from './heavy-queries.js';
import { GraphqlService } from '../app/graphql/run-graphql.js';
import type { Config } from './config/defaults.js';
import type { AppContext, Logger } from './context.js';
import { loadDemoDataOnce, type DemoOutcome } from './demo-data.js';

export interface Running {
  readonly server: Server;
  readonly ctx: AppContext;
  readonly url: string;
  readonly adminKey: string | null; // set when no token was configured and one was created
  /** What DEMO_DATA did (null: not asked for). */
  readonly demo: DemoOutcome | null;
  readonly webhooks: WebhookDispatcher;
  close(): Promise<void>;
}

export const consoleLogger: Logger = {
  info: (m) => console.log(m),
  warn: (m) => console.warn(m),
  error: (m) => console.error(m),
};

export async function start(config: Config, log: Logger = consoleLogger, requestLog?: RequestLogger): Promise<Running> {
  const storage = await openStorage(config, log);
  // A webhook's payload_url is checked against WEBHOOK_ALLOWED_HOSTS when it is set (and again at each request).
  const allowedHosts = parseAllowedHosts(config.webhookAllowedHosts);
  const inventory = new Inventory(storage, {
    keyTtlMs: config.idempotencyTtlS * 1000,
    recheckMs: config.tokenRecheckMs,
    policies: { webhook: webhookTargetPolicy(storage, allowedHosts) },
  });
  const tokens = new Tokens(
    storage,
    config.tokenRecheckMs,
    config.apiTokenPeppers,
    parseNetworkList(config.trustedProxies),
  );
  const adminKey = await seedTokens(tokens, config);
  const demo = config.demoData ? await loadDemoDataOnce(inventory) : null;
  const lifecycle = new Lifecycle(storage, {
    maxStates: config.maxMachineStates,
    maxContextBytes: config.maxContextBytes,
  });
  await installMachineFiles(config.machinesDir, lifecycle);
  const retention = new ChangeRetention(storage, {
    days: config.changelogRetentionDays,
    maxRows: config.changelogMaxRows,
  });
  const closing = new AbortController(); // ends open event streams when the server closes
  const ctx: AppContext = {
    config,
    storage,
    inventory,
    tokens,
    lifecycle,
    changes: new ChangeFeed(storage),
    retention,
    closing: closing.signal,
    planCache: new PlanCache(),
    pages: new PageCache(config.pageCacheMb * 1024 * 1024),
    heavy: new HeavyQueryGate(config.maxHeavyQueries),
    graphql: new GraphqlService(inventory, storage),
    jobs: new JobRunner(inventory, log),
    log,
    requestLog,
  };
  const webhooks = webhookDispatcher(ctx, allowedHosts);
  retention.pin(() => webhooks.pinnedSeq());
  const server = await listen(config, createApp(ctx).handler);
  const pruning = startPruning(ctx, webhooks);
  webhooks.start();
  await ctx.jobs.resume(); // jobs a stopped server left: run again from their files
  // Reads are served while the snapshot is written; writes wait for it (storage/memory/memory-storage.ts).
  if (storage instanceof MemoryStorage) void storage.afterListening();
  return {
    server,
    ctx,
    url: serverUrl(server, config),
    adminKey,
    webhooks,
    demo,
    close: async () => {
      // Drain: stop accepting, let in-flight requests finish (10 s at most), then close the pools.
      closing.abort();
      await drain(server);
      clearInterval(pruning);
      await webhooks.stop();
      await ctx.jobs.close();
      tokens.close();
      inventory.close();
      await storage.close();
    },
  };
}

async function openStorage(config: Config, log: Logger): Promise<AppContext['storage']> {
  const storage = await createStorage(config.storage, {
    queryTimeoutMs: config.queryTimeoutMs,
    poolWaitTimeoutMs: config.poolWaitTimeoutMs,
    log: (m) => log.warn(m),
    readReplica: config.readReplica === 'memory' ? 'memory' : undefined,
    readReplicaLoadUrl: config.readReplicaLoadUrl || undefined,
    idStyle: config.idStyle === '' ? undefined : (config.idStyle as IdStyleName),
  });
  // A memory:/dir start sorts its indexes and writes its snapshot once the server listens (start()).
  if (storage instanceof MemoryStorage) storage.deferStartWork();
  await storage.open();
  const unfinished = await unfinishedImport(storage, withoutPassword(config.storage));
  if (unfinished) {
    await storage.close();
    throw new StorageConfigError(unfinished);
  }
  return storage;
}

/** The configured tokens; with none configured and none stored, an admin token whose key is returned once. */
async function seedTokens(tokens: Tokens, config: Config): Promise<string | null> {
  // Each configured token's permissions held by user config-<n> (n from 1, in the file's order), then
  // every other token of an earlier release given a user of its own (issue #39 point 4).
  for (const [i, t] of config.tokens.entries())
    await tokens.create(t.permissions, t.description ?? 'from config', t.key, `config-${i + 1}`);
  await tokens.giveUsersToOldTokens();
  if (config.tokens.length === 0 && (await tokens.count()) === 0)
    return (await tokens.create(['*'], 'admin token created at first start')).key;
  return null;
}

/** Webhooks: deliveries planned from the change log and sent (app/webhooks/dispatcher.ts). */
function webhookDispatcher(ctx: AppContext, allowedHosts: ReturnType<typeof parseAllowedHosts>): WebhookDispatcher {
  const { config, log } = ctx;
  return new WebhookDispatcher(ctx.storage, ctx.changes, {
    maxAttempts: config.webhookMaxAttempts,
    retryBaseMs: config.webhookRetryBaseMs,
    retryMaxMs: config.webhookRetryMaxMs,
    timeoutMs: config.webhookTimeoutMs,
    allowedHosts,
    keepResponse: config.webhookKeepResponse,
    maxChain: config.webhookMaxChain,
    log: (m) => log.warn(m),
  });
}

function listen(config: Config, handler: Parameters<typeof createServer>[1]): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    // Headers up to 64 KiB reach the app, so an over-long URL gets a JSON 414 rather than a bare 431.
    // Slow clients are bounded: headers within HEADERS_TIMEOUT_MS, the whole request within that
    // plus BODY_TIMEOUT_MS (Node's default is 300 s), checked every 250 ms (Node's default: 30 s).
    const s = createServer(
      {
        maxHeaderSize: 64 * 1024,
        headersTimeout: config.headersTimeoutMs,
        requestTimeout: config.headersTimeoutMs + config.bodyTimeoutMs,
        connectionsCheckingInterval: 250,
      },
      handler,
    );
    s.once('error', reject);
    s.listen(config.port, config.host, () => resolve(s));
  });
}

/**
 * Change log retention: a pass now and every 10 minutes (a failed pass is logged and tried again).
 * Finished webhook deliveries go with their change records.
 */
function startPruning(ctx: AppContext, webhooks: WebhookDispatcher): NodeJS.Timeout {
  const prune = () => {
    ctx.retention
      .prune()
      .then(() => webhooks.pruneDeliveries())
      .then(() => ctx.inventory.keys.prune())
      .catch((e) => ctx.log.warn(`change log retention: ${(e as Error).message}`));
  };
  prune();
  return setInterval(prune, 10 * 60_000).unref();
}

function serverUrl(server: Server, config: Config): string {
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  return `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
}

/** Stops accepting and waits for in-flight requests, closing what is left after 10 s. */
function drain(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), 10000);
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
