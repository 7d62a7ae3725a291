// Memory replicas: reads and creates through 1, 2, 3 replica processes (`scale-out` files) and the
// replication lag under steady writes (`replica-lag` files).
import { label } from './backends.js';
import type { Filler } from './fillers.js';
import { count, ms } from './format.js';
import { table } from './markdown.js';
import { need } from './sources.js';
import type { ReplicaLagRow, Spread } from '../results-shapes.js';

const scaleOut: Filler = (ctx) => {
  const r = need(ctx.sources, 'scale-out').data;
  const rows = r.rows.map((x) => [label(x.backend), x.processes, x.what, count(x.rps), ms(x.p99_ms), count(x.errors)]);
  return table(['database', 'processes', 'requests', 'requests/s', 'p99', 'errors'], rows, [1, 3, 4, 5]);
};

/** The bench's own line per process started: its initial load and resident memory. */
const scaleOutProcesses: Filler = (ctx) => need(ctx.sources, 'scale-out').data.processes.join('\n');

const spread = (s: Spread): string => `${ms(s.p50)} / ${ms(s.p99)} / ${ms(s.max)}`;
/** A histogram bucket bound in ms ('∞' past the last bucket). */
const bound = (le: string): string => (le === '∞' ? '∞' : ms(Number(le)));

const replicaLag: Filler = (ctx) => {
  const now = need(ctx.sources, 'replica-lag').data;
  // A run of the code before a change, when kept (replica-lag-before): its rows first, then this run's.
  const before = ctx.sources['replica-lag-before']?.data;
  const head = [
    'database',
    'writes/s reached (asked)',
    "read at the write's seq: p50 / p99 / max",
    'the same read alone: p50 / p99 / max',
    "records' age when applied: p50 / p99 at most",
    'CPU per write: servers / database / load generator',
    'CPU per write, sum',
  ];
  const cpu = (c: ReplicaLagRow['cpu_ms_per_write']) =>
    c ? `${ms(c.servers)} / ${ms(c.database)} / ${ms(c.generator)}` : '';
  const sum = (c: ReplicaLagRow['cpu_ms_per_write']) =>
    c ? ms(Math.round((c.servers + c.database + c.generator) * 100) / 100) : '';
  const rows = (r: typeof now, code: string | null) =>
    r.rows.map((x) => [
      ...(code === null ? [] : [code]),
      label(x.backend),
      `${count(x.writes_per_s)} (${count(x.asked ?? r.rate)})`,
      spread(x.lag_ms),
      spread(x.plain_ms),
      `${bound(x.applied.p50_le_ms)} / ${bound(x.applied.p99_le_ms)}`,
      cpu(x.cpu_ms_per_write),
      sum(x.cpu_ms_per_write),
    ]);
  if (!before) return table(head, rows(now, null), [1, 6]);
  return table(['code', ...head], [...rows(before, 'before'), ...rows(now, 'now')], [2, 7]);
};

export const REPLICA_FILLERS: Readonly<Record<string, Filler>> = {
  'scale-out-table': scaleOut,
  'scale-out-processes': scaleOutProcesses,
  'replica-lag-table': replicaLag,
};
