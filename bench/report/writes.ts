// Writes: single-site creates over HTTP (`writes` files) and how soon each reaches a client of the
// change stream (`stream-lag` files), and what clients of it that stop reading cost (`stream-stalled`).
import { label } from './backends.js';
import type { Filler } from './fillers.js';
import { count, ms } from './format.js';
import { table } from './markdown.js';
import { need } from './sources.js';
import type { Spread } from '../results-shapes.js';

const writes: Filler = (ctx) => {
  const rows = need(ctx.sources, 'writes').data.rows.map((x) => [label(x.backend), count(x.rps), ms(x.p50_ms), ms(x.p99_ms), count(x.failed)]);
  return table(['backend', 'creates/s', 'p50', 'p99', 'failed'], rows, [1, 2, 3, 4]);
};

const pair = (s: Spread | null): string => (s ? `${ms(s.p50)} / ${ms(s.p99)}` : '—');

const streamLag: Filler = (ctx) => {
  const r = need(ctx.sources, 'stream-lag').data;
  const head = ['backend', 'one write at a time: p50 / p99', `${r.writers} writers at once: p50 / p99`, 'writes/s under load',
    'written through another process: p50 / p99'];
  return table(head, r.rows.map((x) => [label(x.backend), pair(x.idle), pair(x.load), count(x.load_writes_per_s), pair(x.remote)]), [3]);
};

const mib = (v: number): string => `${v} MiB`;

const streamStalled: Filler = (ctx) => {
  const r = need(ctx.sources, 'stream-stalled').data;
  const ratio = (v: number) => `${count(v)} (${(v / r.idle_prefixes_per_s).toFixed(2)}×)`;
  return table(['', 'alone', `with ${count(r.clients)} clients that stopped reading`, 'after they were dropped'], [
    ['bulk creates, prefixes/s', count(r.idle_prefixes_per_s), ratio(r.stalled_prefixes_per_s), ratio(r.after_prefixes_per_s)],
    ['server RSS', `${count(r.idle_rss_mb)} MB`, `${count(r.peak_rss_mb)} MB at most (+${count(r.peak_rss_mb - r.idle_rss_mb)} MB)`, ''],
    ['their sockets\' send queues (`ss -tm`): Send-Q / skmem w, all together', '', `${mib(r.peak_send_q_mib)} / ${mib(r.peak_skmem_w_mib)} at most`, ''],
    ['streams still connected', '', count(r.clients), `${count(r.streams_at_end)} (${count(r.seconds_sampled)} s after they connected)`],
  ], [1, 2, 3]);
};


/** Bulk creates at scale (`bulk` files): rate, errors, the late batches against the early ones, CPU. */
const bulk: Filler = (ctx) => {
  const r = need(ctx.sources, 'bulk').data;
  const errors = (e: Readonly<Record<string, number>>) => Object.entries(e).map(([s, n]) => `${count(n)}× ${s === '0' ? 'no answer' : s}`).join(', ') || '0';
  const head = ['backend', 'prefixes/s', 'failed batches', 'batch p50 / p99 / max', '10th batch / last (last ÷ 10th)',
    'median of batches 10–19 / of the last 10 (ratio)', 'CPU per 1,000 prefixes: server / database / load generator', 'load average (start → end)', 'pool waits (mean, timed out)'];
  const rows = r.rows.map((x) => [label(x.backend), count(x.prefixes_per_s), errors(x.errors), `${ms(x.batch_ms.p50)} / ${ms(x.batch_ms.p99)} / ${ms(x.batch_ms.max)}`,
    `${ms(x.tenth_ms)} / ${ms(x.last_ms)} (${x.last_over_tenth.toFixed(2)}×)`, `${ms(x.median_10th_to_19th_ms)} / ${ms(x.median_last_10_ms)} (${x.late_over_early.toFixed(2)}×)`,
    `${ms(x.cpu_ms_per_1000.server)} / ${x.cpu_ms_per_1000.database ? ms(x.cpu_ms_per_1000.database) : '—'} / ${ms(x.cpu_ms_per_1000.generator)}`,
    `${x.load_average_1m.start} → ${x.load_average_1m.end}`, x.pool ? `${count(x.pool.waits)} (${ms(x.pool.mean_ms)}, ${count(x.pool.timeouts)})` : '—']);
  return table(head, rows, [1]);
};

export const WRITE_FILLERS: Readonly<Record<string, Filler>> = { 'writes-table': writes, 'stream-lag-table': streamLag, 'stream-stalled-table': streamStalled, 'bulk-table': bulk };
