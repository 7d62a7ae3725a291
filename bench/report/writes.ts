// Writes: single-site creates over HTTP (`writes` files) and how soon each reaches a client of the
// change stream (`stream-lag` files), and what clients of it that stop reading cost (`stream-stalled`).
import { label } from './backends.js';
import type { Filler } from './fillers.js';
import { count, ms } from './format.js';
import { table } from './markdown.js';
import { need } from './sources.js';
import type { Spread, StreamStalledResults } from '../results-shapes.js';

const writes: Filler = (ctx) => {
  const rows = need(ctx.sources, 'writes').data.rows.map((x) => [
    label(x.backend),
    count(x.rps),
    ms(x.p50_ms),
    ms(x.p99_ms),
    count(x.failed),
  ]);
  return table(['backend', 'creates/s', 'p50', 'p99', 'failed'], rows, [1, 2, 3, 4]);
};

const pair = (s: Spread | null): string => (s ? `${ms(s.p50)} / ${ms(s.p99)}` : '—');

const streamLag: Filler = (ctx) => {
  const r = need(ctx.sources, 'stream-lag').data;
  const head = [
    'backend',
    'one write at a time: p50 / p99',
    `${r.writers} writers at once: p50 / p99`,
    'writes/s under load',
    'written through another process: p50 / p99',
  ];
  return table(
    head,
    r.rows.map((x) => [label(x.backend), pair(x.idle), pair(x.load), count(x.load_writes_per_s), pair(x.remote)]),
    [3],
  );
};

const mib = (v: number): string => `${v} MiB`;

/**
 * Alone, with the clients just connected, with them full, after: medians over the rounds; each ratio is the median of
 * the rounds' (the phase over the mean of the alone phases around it).
 */
const streamStalled: Filler = (ctx) => {
  const r = need(ctx.sources, 'stream-stalled').data;
  const x = (v: number) => `${v.toFixed(2)}×`;
  // A run of the code before the shared bytes, when kept (stream-stalled-before): its rows under this run's.
  const before = ctx.sources['stream-stalled-before']?.data;
  const speed = (d: StreamStalledResults) => [
    count(d.alone_prefixes_per_s),
    `${count(d.filling_prefixes_per_s)} (${x(d.fill_speed_ratio)})`,
    `${count(d.stalled_prefixes_per_s)} (${x(d.speed_ratio)})`,
    count(d.after_prefixes_per_s),
  ];
  const cpu = (d: StreamStalledResults) => [
    ms(d.alone_cpu_ms_per_1000),
    `${ms(d.filling_cpu_ms_per_1000)} (${x(d.fill_cpu_ratio)}; ${ms(d.fill_extra_cpu_ms)} more in all, once)`,
    `${ms(d.stalled_cpu_ms_per_1000)} (${x(d.cpu_ratio)})`,
    ms(d.after_cpu_ms_per_1000),
  ];
  const rss = (d: StreamStalledResults) => [
    `${count(d.idle_rss_mb)} MB`,
    `+${count(d.peak_rss_growth_mb)} MB at most`,
    '',
    '',
  ];
  return table(
    [
      '',
      'alone',
      `${count(r.clients)} clients that stopped reading: just connected`,
      '… once full',
      'after they were dropped',
    ],
    [
      ['bulk creates, prefixes/s', ...speed(r)],
      ['server CPU per 1,000 prefixes', ...cpu(r)],
      ['server RSS', ...rss(r)],
      ...(before
        ? [
            ['before: prefixes/s', ...speed(before)],
            ['before: server CPU per 1,000 prefixes', ...cpu(before)],
            ['before: server RSS', ...rss(before)],
          ]
        : []),
      [
        "their sockets' send queues (`ss -tm`): Send-Q / skmem w, all together",
        '',
        `${mib(r.peak_send_q_mib)} / ${mib(r.peak_skmem_w_mib)} at most`,
        '',
        '',
      ],
      [
        'streams still connected',
        '',
        count(r.clients),
        count(r.clients),
        `${count(r.streams_at_end)} (${count(Math.round(r.dropped_after_s))} s after they connected, at most)`,
      ],
    ],
    [1, 2, 3, 4],
  );
};

/** Each round of `stream-stalled`: how far apart the phases of one run can be on a shared machine. */
const streamStalledRounds: Filler = (ctx) => {
  const r = need(ctx.sources, 'stream-stalled').data;
  const phase = (p: { prefixes_per_s: number; server_cpu_ms_per_1000: number }) =>
    `${count(p.prefixes_per_s)} / ${ms(p.server_cpu_ms_per_1000)}`;
  const x = (a: number, b: number) => `${a.toFixed(2)}× / ${b.toFixed(2)}×`;
  return table(
    [
      'round',
      'alone: prefixes/s / CPU per 1,000',
      'just connected',
      'once full',
      'after',
      'just connected: ratios',
      'once full: ratios',
      'load average',
    ],
    r.round_figures.map((y, i) => [
      count(i + 1),
      phase(y.alone),
      phase(y.filling),
      phase(y.stalled),
      phase(y.after),
      x(y.fill_speed_ratio, y.fill_cpu_ratio),
      x(y.speed_ratio, y.cpu_ratio),
      String(y.stalled.load_average_1m),
    ]),
    [1, 2, 3, 4, 5, 6, 7],
  );
};

/** Bulk creates at scale (`bulk` files): rate, errors, the late batches against the early ones, CPU. */
const bulk: Filler = (ctx) => {
  const r = need(ctx.sources, 'bulk').data;
  const errors = (e: Readonly<Record<string, number>>) =>
    Object.entries(e)
      .map(([s, n]) => `${count(n)}× ${s === '0' ? 'no answer' : s}`)
      .join(', ') || '0';
  const head = [
    'backend',
    'prefixes/s',
    'failed batches',
    'batch p50 / p99 / max',
    '10th batch / last (last ÷ 10th)',
    'median of batches 10–19 / of the last 10 (ratio)',
    'CPU per 1,000 prefixes: server / database / load generator',
    'load average (start → end)',
    'pool waits (mean, timed out)',
  ];
  const rows = r.rows.map((x) => [
    label(x.backend),
    count(x.prefixes_per_s),
    errors(x.errors),
    `${ms(x.batch_ms.p50)} / ${ms(x.batch_ms.p99)} / ${ms(x.batch_ms.max)}`,
    `${ms(x.tenth_ms)} / ${ms(x.last_ms)} (${x.last_over_tenth.toFixed(2)}×)`,
    `${ms(x.median_10th_to_19th_ms)} / ${ms(x.median_last_10_ms)} (${x.late_over_early.toFixed(2)}×)`,
    `${ms(x.cpu_ms_per_1000.server)} / ${x.cpu_ms_per_1000.database ? ms(x.cpu_ms_per_1000.database) : '—'} ` +
      `/ ${ms(x.cpu_ms_per_1000.generator)}`,
    `${x.load_average_1m.start} → ${x.load_average_1m.end}`,
    x.pool ? `${count(x.pool.waits)} (${ms(x.pool.mean_ms)}, ${count(x.pool.timeouts)})` : '—',
  ]);
  return table(head, rows, [1]);
};

export const WRITE_FILLERS: Readonly<Record<string, Filler>> = {
  'writes-table': writes,
  'stream-lag-table': streamLag,
  'stream-stalled-table': streamStalled,
  'stream-stalled-rounds-table': streamStalledRounds,
  'bulk-table': bulk,
};
