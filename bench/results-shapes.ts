// The shape of each kind of file in bench/results/ (<date>-<kind>.json): the benches write them,
// bench/report/ reads them. Every file also carries `machine` (bench/machine.ts).
import type { Figure } from './measure.js';

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memory_gib: number;
  readonly node: string;
  readonly postgres: string | null;
  readonly mysql: string | null;
  readonly date: string;
  /** Server versions of the SQL backends measured (the client's version says little for MySQL 9). */
  servers?: Record<string, string>;
  /** The 1-minute load average when the bench began (absent in files from before it was kept). */
  readonly load_average_1m?: number;
}

/** Milliseconds at the 50th and 99th percentile, and the largest. */
export interface Spread {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/** `filters` (bench/run.ts): one query class on one backend at one size. */
export interface Measurement {
  size: number;
  backend: string;
  class: string;
  matched: number;
  median_us: number;
  p99_us: number;
  ops_per_s: number;
  samples: number;
}
export interface FilterResults {
  machine: Machine;
  shape: string;
  seed: number;
  measurements: Measurement[];
  loads: { size: number; backend: string; ms: number }[];
  notes: string[];
}

/** `http-autocannon`, `http-wrk` (bench/http.ts). */
export interface HttpRow {
  readonly backend: string;
  readonly query: string;
  readonly rps: number;
  readonly p50_ms: number;
  readonly p99_ms: number;
  readonly errors: number;
  /** The median of a few fetches one at a time (absent in files written before it was measured). */
  readonly single_ms?: number;
}
export interface HttpResults {
  readonly machine: Machine;
  readonly prefixes: number;
  readonly client: string;
  readonly connections: number;
  readonly pipelining: number;
  readonly rows: readonly HttpRow[];
}

/** `lifecycle` (bench/lifecycle.ts): events/s on distinct entities and on one hot entity. */
export interface LifecycleRow {
  readonly backend: string;
  readonly distinct: number;
  readonly hot: number;
  readonly hot_ok: number;
}
export interface LifecycleResults {
  readonly machine: Machine;
  readonly events: number;
  readonly concurrency: number;
  readonly rows: readonly LifecycleRow[];
}

/** `scale-out` (bench/scale-out.bench.ts). `processes`: a line per process started (load time, memory). */
export interface ScaleOutRow {
  readonly backend: string;
  readonly processes: number;
  readonly what: string;
  readonly rps: number;
  readonly p99_ms: number;
  readonly errors: number;
}
export interface ScaleOutResults {
  readonly machine: Machine;
  readonly prefixes: number;
  readonly connections: number;
  readonly duration: number;
  readonly rows: readonly ScaleOutRow[];
  readonly processes: readonly string[];
}

/** `replica-lag` (bench/replica-lag.bench.ts). */
export interface ReplicaLagRow {
  /** Writes per second asked of this run (files before the rate list: the file's `rate`). */
  readonly asked?: number;
  readonly backend: string;
  readonly writes_per_s: number;
  readonly failed: number;
  readonly lag_reads: number;
  /** The read that waits for the write's seq, and the same read right after without waiting. */
  readonly lag_ms: Spread;
  readonly plain_ms: Spread;
  /**
   * CPU spent per counted write by the two server processes, the database and the load generator (ms).
   * `database`: its connections to the bench's database (since 2026-11-27; before, every process of
   * the database server, which is `database_all` now: on a shared machine it counts others' load).
   */
  readonly cpu_ms_per_write?: {
    readonly servers: number;
    readonly database: number;
    readonly generator: number;
    readonly database_all?: number;
  };
  /** netinv_replica_apply_lag_seconds: the bucket bounds (ms) its p50 and p99 fall in ('∞' past the last). */
  readonly applied: { readonly count: number; readonly p50_le_ms: string; readonly p99_le_ms: string };
}
export interface ReplicaLagResults {
  readonly machine: Machine;
  readonly rate: number;
  readonly seconds: number;
  readonly warmup_seconds?: number;
  readonly rows: readonly ReplicaLagRow[];
}

/** `stream-lag` (bench/change-stream.bench.ts): commit -> event at the client, ms. */
export interface StreamLagRow {
  readonly backend: string;
  readonly idle: Spread;
  readonly load: Spread;
  readonly load_writes_per_s: number;
  /** Writes through a second process (SQL only), from that process's answer. */
  readonly remote: Spread | null;
}
export interface StreamLagResults {
  readonly machine: Machine;
  readonly writes: number;
  readonly remote_writes: number;
  readonly writers: number;
  readonly streams: number;
  readonly rows: readonly StreamLagRow[];
}

/**
 * One phase of bulk creates in `stream-stalled`; from_us/to_us on the monotonic clock (as a CPU profile's timestamps).
 */
export interface StalledPhase {
  readonly prefixes_per_s: number;
  readonly server_cpu_ms_per_1000: number;
  readonly batch_ms: readonly number[];
  readonly load_average_1m: number;
  readonly from_us: number;
  readonly to_us: number;
  /** Stalled phases: the stream sockets connected when it began and when it ended. */
  readonly streams_at_start?: number;
  readonly streams_at_end?: number;
  /** Once full: their sockets' Send-Q when it began and when it ended (the same: nothing more was written to them). */
  readonly send_q_mib_at_start?: number;
  readonly send_q_mib_at_end?: number;
}
/**
 * A round: alone; with the clients just connected (their buffers fill); with them full; alone again
 * once the server dropped them. Ratios: a phase's figure over the mean of the two alone phases;
 * fill_extra_cpu_ms: the server's CPU the filling phase took beyond theirs (once per client).
 */
export interface StalledRound {
  readonly alone: StalledPhase;
  readonly filling: StalledPhase;
  readonly stalled: StalledPhase;
  readonly after: StalledPhase;
  readonly fill_speed_ratio: number;
  readonly fill_cpu_ratio: number;
  readonly fill_extra_cpu_ms: number;
  readonly streams_left_by_server: number;
  readonly dropped_after_s: number;
  readonly rss_before_mb: number;
  readonly peak_rss_mb: number;
  readonly peak_send_q_mib: number;
  readonly peak_skmem_w_mib: number;
  readonly speed_ratio: number;
  readonly cpu_ratio: number;
}
export interface StalledSample {
  readonly t_ms: number;
  readonly rss_mb: number;
  readonly streams: number;
  readonly send_q_mib: number;
  readonly skmem_w_mib: number;
}

/**
 * `stream-stalled` (bench/stream-stalled.ts): what clients of the stream that stop reading cost a server; figures are
 * medians over the rounds.
 */
export interface StreamStalledResults {
  readonly machine: Machine;
  readonly clients: number;
  readonly batches: number;
  readonly batch_size: number;
  readonly rounds: number;
  readonly alone_prefixes_per_s: number;
  readonly stalled_prefixes_per_s: number;
  readonly after_prefixes_per_s: number;
  readonly alone_cpu_ms_per_1000: number;
  readonly stalled_cpu_ms_per_1000: number;
  readonly after_cpu_ms_per_1000: number;
  readonly speed_ratio: number;
  readonly cpu_ratio: number;
  readonly filling_prefixes_per_s: number;
  readonly filling_cpu_ms_per_1000: number;
  readonly fill_speed_ratio: number;
  readonly fill_cpu_ratio: number;
  readonly fill_extra_cpu_ms: number;
  readonly idle_rss_mb: number;
  readonly peak_rss_growth_mb: number;
  readonly peak_send_q_mib: number;
  readonly peak_skmem_w_mib: number;
  readonly streams_at_end: number;
  readonly dropped_after_s: number;
  readonly load_average_1m: { readonly min: number; readonly max: number };
  readonly max_buffer_bytes: number;
  readonly drain_timeout_ms: number;
  readonly round_figures: readonly StalledRound[];
  readonly samples: readonly StalledSample[];
}

/** `allocation` (bench/allocation.bench.ts): latencies in µs as bench/measure.ts gives them. */
export interface AllocationRow {
  readonly backend: string;
  readonly load_ms: number;
  readonly first_allocate_ms: number;
  readonly search: Figure;
  readonly allocate: Figure;
  readonly create: Figure;
  readonly create_random: Figure;
}
export interface AllocationResults {
  readonly machine: Machine;
  readonly taken: number;
  readonly rows: readonly AllocationRow[];
}

/** `writes` (bench/writes.bench.ts): single-site creates over HTTP. */
export interface WritesRow {
  readonly backend: string;
  readonly rps: number;
  readonly p50_ms: number;
  readonly p99_ms: number;
  readonly failed: number;
}
export interface WritesResults {
  readonly machine: Machine;
  readonly seconds: number;
  readonly connections: number;
  readonly rows: readonly WritesRow[];
}

/** `store` (bench/store.bench.ts): the memory store's load, heap per prefix and restart. */
export interface StoreResults {
  readonly machine: Machine;
  readonly prefixes: number;
  readonly shape: string;
  readonly load_s: number;
  readonly of_which_sorting_s: number;
  readonly bytes_per_prefix: number;
  readonly heap_mb: number;
  readonly row_object_us: number;
  /** Absent with --no-restart. */
  readonly snapshot_mb?: number;
  readonly restart_s?: number;
  readonly restart_open_s?: number;
  readonly restart_peak_rss_mb?: number;
  /**
   * The server's first start on a journal as bench:data leaves it, and the next from its snapshot (absent with
   * --no-journal-start).
   */
  readonly journal_mb?: number;
  readonly journal_start_s?: number;
  readonly journal_start_cpu_s?: number;
  /** From the first start's `listening on` to the answer of a first page of prefixes (absent in results before it). */
  readonly journal_first_page_s?: number;
  readonly snapshot_start_s?: number;
  readonly snapshot_start_cpu_s?: number;
}

/** `inventory` (bench/inventory.bench.ts): ansible-inventory --list through nb_inventory. */
export interface InventoryRow {
  readonly backend: string;
  readonly devices: number;
  readonly vms: number;
  readonly load_s: number;
  readonly seconds: number;
  readonly requests: number;
  readonly server_seconds: number;
  /** The same run against the answers kept by a proxy, no server behind: the plugin's own share. */
  readonly plugin_alone_seconds?: number;
}
export interface InventoryResults {
  readonly machine: Machine;
  readonly rows: readonly InventoryRow[];
}

/** `bulk` (bench/bulk.bench.ts): batches of prefixes POSTed by a few clients until `total`, on a fresh database. */
export interface BulkRow {
  readonly backend: string;
  readonly total: number;
  readonly created: number;
  readonly seconds: number;
  readonly prefixes_per_s: number;
  /** Failed batches by HTTP status (0: no answer). */
  readonly errors: Readonly<Record<string, number>>;
  readonly batch_ms: Spread;
  readonly tenth_ms: number;
  readonly last_ms: number;
  readonly last_over_tenth: number;
  /** The same comparison less exposed to one slow batch: medians of batches 10-19 and of the last 10. */
  readonly median_10th_to_19th_ms: number;
  readonly median_last_10_ms: number;
  readonly late_over_early: number;
  /** CPU per 1,000 prefixes created: the server process, the database's processes, the load generator (ms). */
  readonly cpu_ms_per_1000: { readonly server: number; readonly database: number; readonly generator: number };
  readonly load_average_1m: { readonly start: number; readonly end: number };
  /** The server's pool waits from /metrics at the end (null: memory, or none exposed). */
  readonly pool: { readonly waits: number; readonly mean_ms: number; readonly timeouts: number } | null;
}
export interface BulkResults {
  readonly machine: Machine;
  readonly total: number;
  readonly batch: number;
  readonly clients: number;
  readonly rows: readonly BulkRow[];
}

/** `npm run bench:import`: import:netbox of a NetBox database with `prefixes` prefixes and `addresses`
 * addresses more. */
export interface ImportResults {
  readonly machine: Machine;
  readonly prefixes: number;
  readonly addresses: number;
  /** Per target: wall seconds (`<target>`), CPU seconds of the importing process (`<target>_cpu`); text when
   * it failed. */
  readonly seconds: Readonly<Record<string, number | string>>;
}

/** `npm run bench:graphql`: one GraphQL request at a time through GraphqlService.run (bench/graphql.bench.ts). */
export interface GraphqlCase {
  readonly backend: string;
  /** devices (500 devices, their interfaces and addresses), addresses (27,000 with interface and device),
   * prefix-tree (contains_or_equals with children, at `big_prefixes`). */
  readonly case: string;
  readonly objects: number;
  readonly median_ms: number;
  readonly p99_ms: number;
  readonly samples: number;
  /** The share of the timed run's wall time spent in garbage collection (0 to 1). */
  readonly gc_share: number;
  readonly target_ms: number | null;
  /** Set when the request failed (the other figures are then 0). */
  readonly error?: string;
}
/** RSS while a request answers `objects` objects (as many as GRAPHQL_MAX_OBJECTS allows). */
export interface GraphqlRss {
  readonly backend: string;
  readonly objects: number;
  readonly ms: number;
  readonly rss_before_mb: number;
  readonly rss_growth_mb: number;
  readonly target_mb: number;
}
export interface GraphqlResults {
  readonly machine: Machine;
  readonly prefixes: number;
  readonly devices: number;
  readonly interfaces: number;
  readonly addresses: number;
  readonly big_prefixes: number;
  readonly max_objects: number;
  readonly queries: Readonly<Record<string, string>>;
  readonly cases: readonly GraphqlCase[];
  readonly rss: readonly GraphqlRss[];
}

/** `npm run bench:csv` (bench/csv.bench.ts): a CSV export over HTTP of the whole prefix list. */
export interface CsvExport {
  readonly backend: string;
  readonly rows: number;
  readonly bytes: number;
  readonly first_byte_ms: number;
  readonly total_ms: number;
  /** The server's RSS before the export and the most it grew by while it ran (sampled every 20 ms). */
  readonly rss_before_mb: number;
  readonly rss_growth_mb: number;
  readonly target_ms: number;
  readonly error?: string;
}
/** A CSV import of `rows` new prefixes, in the foreground or as a background job. */
export interface CsvImport {
  readonly backend: string;
  readonly rows: number;
  readonly mode: 'foreground' | 'background';
  readonly total_ms: number;
  readonly target_ms: number;
  readonly error?: string;
}
/** A page of 50 fetched one at a time, alone and while an export runs. */
export interface CsvPage {
  readonly backend: string;
  readonly alone: Spread;
  readonly during_export: Spread;
  readonly alone_samples: number;
  readonly during_samples: number;
}
export interface CsvResults {
  readonly machine: Machine;
  readonly prefixes: number;
  readonly import_rows: number;
  readonly exports: readonly CsvExport[];
  readonly imports: readonly CsvImport[];
  readonly pages: readonly CsvPage[];
}
