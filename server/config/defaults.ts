// Configuration keys, their environment variables and defaults: one table.
import { DEFAULT_MAX_STATES } from '../../engine/lifecycle/machine-schema.js';
import { DEFAULT_MAX_CONTEXT_BYTES } from '../../app/lifecycle.js';
import { DEFAULT_TOKEN_RECHECK_MS } from '../../app/tokens.js';
import { DEFAULT_GRAPHQL_LIMITS } from '../../app/graphql/contract.js';
export interface TokenConfig {
  readonly key: string;
  readonly permissions: readonly string[];
  readonly description?: string;
}

export interface Config {
  readonly host: string;
  readonly port: number;
  readonly storage: string;
  readonly strictFiltering: boolean;
  readonly demoData: boolean;
  readonly tokens: readonly TokenConfig[];
  readonly machinesDir: string;
  readonly maxPageSize: number;
  /** Time budget of one storage query in ms (0 = none): past it the query is cancelled, 503. */
  readonly queryTimeoutMs: number;
  /** How long a statement waits for a pooled database connection (ms): past it the request answers 503. */
  readonly poolWaitTimeoutMs: number;
  /** A client has this long (ms) to send a request's headers. */
  readonly headersTimeoutMs: number;
  /** ... and this long (ms) after them to send its body: a stalled body's connection is closed. */
  readonly bodyTimeoutMs: number;
  /** States a machine definition may have (transitions: ten per state). */
  readonly maxMachineStates: number;
  /** Largest entity context, as JSON bytes: a change that would make it larger is a 413. */
  readonly maxContextBytes: number;
  /** Heavy list queries (regex, case-insensitive text) running at once; past it a 429. */
  readonly maxHeavyQueries: number;
  /** The NetBox API level answered in `API-Version` and as `netbox-version` in /api/status/ (`major.minor`). */
  readonly netboxApiLevel: string;
  /** Change records older than this many days are pruned (0: kept whatever their age). */
  readonly changelogRetentionDays: number;
  /** Only the newest this many change records are kept (0: no cap). */
  readonly changelogMaxRows: number;
  /** How long an inventory write's Idempotency-Key answers a retry with the first answer (s; 0: forever). */
  readonly idempotencyTtlS: number;
  /**
   * Webhook deliveries: attempts before one is marked failed, the delay after the first failure (doubled after each
   * further one, at most the max), each request's time limit (ms).
   */
  readonly webhookMaxAttempts: number;
  readonly webhookRetryBaseMs: number;
  readonly webhookRetryMaxMs: number;
  readonly webhookTimeoutMs: number;
  /** Where webhooks may send: host names and CIDRs, each with an optional `:port`, comma-separated ('' = anywhere). */
  readonly webhookAllowedHosts: string;
  /** Keep the start of each receiver's answer in the delivery log (response_excerpt). */
  readonly webhookKeepResponse: boolean;
  /** A change reached through more webhook deliveries than this (writes made with X-Netinv-Webhook) is not sent. */
  readonly webhookMaxChain: number;
  /** `memory`: keep the inventory in this process's memory engine, following the database's change log ('' = off). */
  readonly readReplica: string;
  /**
   * With READ_REPLICA: the replica's initial load reads this database, a streaming standby of STORAGE_URL's ('' =
   * STORAGE_URL itself).
   */
  readonly readReplicaLoadUrl: string;
  /** The event stream sends a keep-alive comment this often (ms). */
  readonly streamKeepAliveMs: number;
  /** Unsent bytes an event stream holds for a slow client, in the process and the kernel's send queue together. */
  readonly streamMaxBufferBytes: number;
  /** A client that takes none of what waits for it for this many ms gets `event: dropped` and the stream ends. */
  readonly streamDrainTimeoutMs: number;
  /** Token checks are answered from memory; the change log is read for token changes at least this often (ms). */
  readonly tokenRecheckMs: number;
  /** List pages read from this process's memory are kept as sent, up to this many MiB (0: none kept). */
  readonly pageCacheMb: number;
  /**
   * ID_STYLE: `uuid` or `integer` (NetBox's), the id style of a store this start creates ('' = uuid). A store
   * that exists keeps its own; set and different from it, the start is refused.
   */
  readonly idStyle: string;
  /** GraphQL: deepest query (the root field is level 1), aliased fields in one document, objects in one answer. */
  readonly graphqlMaxDepth: number;
  readonly graphqlMaxAliases: number;
  readonly graphqlMaxObjects: number;
  /** Rows one CSV / YAML import may carry (a larger file is a 413). */
  readonly importMaxRows: number;
  /** API_TOKEN_PEPPERS (NetBox's): pepper id -> pepper (>= 50 characters); set, new tokens are v2. */
  readonly apiTokenPeppers: Readonly<Record<string, string>>;
  /** Addresses and CIDRs of proxies whose X-Forwarded-For is believed, comma-separated ('' = none). */
  readonly trustedProxies: string;
}

type Parse =
  | 'string'
  | 'port'
  | 'boolean'
  | 'positive'
  | 'whole'
  | 'level'
  | 'replica'
  | 'hosts'
  | 'idstyle'
  | 'peppers'
  | 'cidrs';

export const CONFIG_KEYS: readonly { key: keyof Config; env: string | null; parse: Parse | 'tokens' }[] = [
  { key: 'host', env: 'HOST', parse: 'string' },
  { key: 'port', env: 'PORT', parse: 'port' },
  { key: 'storage', env: 'STORAGE_URL', parse: 'string' },
  { key: 'strictFiltering', env: 'STRICT_FILTERING', parse: 'boolean' },
  { key: 'demoData', env: 'DEMO_DATA', parse: 'boolean' },
  { key: 'tokens', env: null, parse: 'tokens' },
  { key: 'machinesDir', env: 'MACHINES_DIR', parse: 'string' },
  { key: 'maxPageSize', env: 'MAX_PAGE_SIZE', parse: 'positive' },
  { key: 'queryTimeoutMs', env: 'QUERY_TIMEOUT_MS', parse: 'whole' },
  { key: 'poolWaitTimeoutMs', env: 'POOL_WAIT_TIMEOUT_MS', parse: 'positive' },
  { key: 'headersTimeoutMs', env: 'HEADERS_TIMEOUT_MS', parse: 'positive' },
  { key: 'bodyTimeoutMs', env: 'BODY_TIMEOUT_MS', parse: 'positive' },
  { key: 'maxMachineStates', env: 'MAX_MACHINE_STATES', parse: 'positive' },
  { key: 'maxContextBytes', env: 'MAX_CONTEXT_BYTES', parse: 'positive' },
  { key: 'maxHeavyQueries', env: 'MAX_HEAVY_QUERIES', parse: 'positive' },
  { key: 'netboxApiLevel', env: 'NETBOX_API_LEVEL', parse: 'level' },
  { key: 'changelogRetentionDays', env: 'CHANGELOG_RETENTION_DAYS', parse: 'whole' },
  { key: 'changelogMaxRows', env: 'CHANGELOG_MAX_ROWS', parse: 'whole' },
  { key: 'idempotencyTtlS', env: 'IDEMPOTENCY_TTL_S', parse: 'whole' },
  { key: 'webhookMaxAttempts', env: 'WEBHOOK_MAX_ATTEMPTS', parse: 'positive' },
  { key: 'webhookRetryBaseMs', env: 'WEBHOOK_RETRY_BASE_MS', parse: 'positive' },
  { key: 'webhookRetryMaxMs', env: 'WEBHOOK_RETRY_MAX_MS', parse: 'positive' },
  { key: 'webhookTimeoutMs', env: 'WEBHOOK_TIMEOUT_MS', parse: 'positive' },
  { key: 'webhookAllowedHosts', env: 'WEBHOOK_ALLOWED_HOSTS', parse: 'hosts' },
  { key: 'webhookKeepResponse', env: 'WEBHOOK_KEEP_RESPONSE', parse: 'boolean' },
  { key: 'webhookMaxChain', env: 'WEBHOOK_MAX_CHAIN', parse: 'whole' },
  { key: 'readReplica', env: 'READ_REPLICA', parse: 'replica' },
  { key: 'readReplicaLoadUrl', env: 'READ_REPLICA_LOAD_URL', parse: 'string' },
  { key: 'streamKeepAliveMs', env: 'STREAM_KEEPALIVE_MS', parse: 'positive' },
  { key: 'streamMaxBufferBytes', env: 'STREAM_MAX_BUFFER_BYTES', parse: 'positive' },
  { key: 'streamDrainTimeoutMs', env: 'STREAM_DRAIN_TIMEOUT_MS', parse: 'positive' },
  { key: 'tokenRecheckMs', env: 'TOKEN_RECHECK_MS', parse: 'whole' },
  { key: 'pageCacheMb', env: 'PAGE_CACHE_MB', parse: 'whole' },
  { key: 'idStyle', env: 'ID_STYLE', parse: 'idstyle' },
  { key: 'graphqlMaxDepth', env: 'GRAPHQL_MAX_DEPTH', parse: 'positive' },
  { key: 'graphqlMaxAliases', env: 'GRAPHQL_MAX_ALIASES', parse: 'whole' },
  { key: 'graphqlMaxObjects', env: 'GRAPHQL_MAX_OBJECTS', parse: 'positive' },
  { key: 'importMaxRows', env: 'IMPORT_MAX_ROWS', parse: 'positive' },
  { key: 'apiTokenPeppers', env: 'API_TOKEN_PEPPERS', parse: 'peppers' },
  { key: 'trustedProxies', env: 'TRUSTED_PROXIES', parse: 'cidrs' },
];

export const DEFAULTS = {
  host: '127.0.0.1',
  port: 8080,
  storage: 'memory:',
  strictFiltering: true,
  tokens: [] as TokenConfig[],
  machinesDir: 'machines/',
  maxPageSize: 1000,
  queryTimeoutMs: 10000,
  poolWaitTimeoutMs: 5000, // pg-pool's connectionTimeoutMillis before it was a setting
  headersTimeoutMs: 10000,
  bodyTimeoutMs: 10000,
  maxMachineStates: DEFAULT_MAX_STATES,
  maxContextBytes: DEFAULT_MAX_CONTEXT_BYTES,
  maxHeavyQueries: 8,
  netboxApiLevel: '3.7',
  changelogRetentionDays: 90, // NetBox's CHANGELOG_RETENTION default
  changelogMaxRows: 0,
  idempotencyTtlS: 86_400, // a day, as Stripe keeps its keys
  webhookMaxAttempts: 10, // with the delays below: retried for about 40 minutes
  webhookRetryBaseMs: 5000,
  webhookRetryMaxMs: 3_600_000,
  webhookTimeoutMs: 10000,
  webhookAllowedHosts: '', // any target
  webhookKeepResponse: false, // a receiver's answer may be what an internal service should not show
  webhookMaxChain: 3,
  readReplica: '',
  readReplicaLoadUrl: '',
  streamKeepAliveMs: 15000,
  streamMaxBufferBytes: 256 * 1024,
  streamDrainTimeoutMs: 10000,
  tokenRecheckMs: DEFAULT_TOKEN_RECHECK_MS,
  pageCacheMb: 64,
  idStyle: '',
  graphqlMaxDepth: DEFAULT_GRAPHQL_LIMITS.maxDepth,
  graphqlMaxAliases: DEFAULT_GRAPHQL_LIMITS.maxAliases,
  graphqlMaxObjects: DEFAULT_GRAPHQL_LIMITS.maxObjects,
  importMaxRows: 10_000,
  apiTokenPeppers: {} as Readonly<Record<string, string>>,
  trustedProxies: '',
} as const;
