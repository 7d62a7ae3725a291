// Timing: `benchmark` for ops/s, a separate hrtime loop for the per-call median and p99.
import Benchmark from 'benchmark';

export interface Figure {
  readonly ops_per_s: number;
  readonly median_us: number;
  readonly p99_us: number;
  readonly samples: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

/** Per-call latencies of `fn`, at least `min` calls or until `maxMs` passes. */
async function latencies(fn: () => unknown, isAsync: boolean, min: number, maxMs: number): Promise<number[]> {
  const out: number[] = [];
  const end = performance.now() + maxMs;
  while (out.length < min || (performance.now() < end && out.length < 100000)) {
    const t = process.hrtime.bigint();
    if (isAsync) await fn();
    else fn();
    out.push(Number(process.hrtime.bigint() - t) / 1000);
    if (out.length >= min && performance.now() > end) break;
  }
  return out.sort((a, b) => a - b);
}

function opsPerSecond(fn: () => unknown, isAsync: boolean, maxTime: number): Promise<number> {
  return new Promise((resolve) => {
    const bench = isAsync
      ? new Benchmark('x', {
          defer: true,
          maxTime,
          minSamples: 5,
          fn: (d: { resolve(): void }) => {
            (fn() as Promise<unknown>).then(() => d.resolve());
          },
        })
      : new Benchmark('x', { maxTime, minSamples: 5, fn });
    bench.on('complete', () => resolve(bench.hz)).run({ async: false });
  });
}

/**
 * `slow`: for statements of seconds (a full scan at 1M rows): one warm-up call, five timed calls,
 * ops/s taken as 1 / mean instead of a `benchmark` run.
 */
export async function measure(
  fn: () => unknown,
  opts: { async?: boolean; maxMs?: number; slow?: boolean } = {},
): Promise<Figure> {
  const isAsync = !!opts.async;
  const maxMs = opts.maxMs ?? 600;
  for (let i = 0; i < (opts.slow ? 1 : 20); i++) {
    if (isAsync) await fn();
    else fn();
  } // warm up
  const lat = await latencies(fn, isAsync, opts.slow ? 5 : 30, opts.slow ? 0 : maxMs);
  const hz = opts.slow
    ? 1e6 / (lat.reduce((a, b) => a + b, 0) / lat.length)
    : await opsPerSecond(fn, isAsync, maxMs / 1000);
  return {
    ops_per_s: Math.round(hz),
    median_us: round(percentile(lat, 0.5)),
    p99_us: round(percentile(lat, 0.99)),
    samples: lat.length,
  };
}

const round = (x: number) => (x < 10 ? Math.round(x * 100) / 100 : x < 1000 ? Math.round(x * 10) / 10 : Math.round(x));

/** p50 / p99 / max of milliseconds (any order), each to 0.01 ms: a lag or latency spread for a results file. */
export function spread(ms: readonly number[]): { p50: number; p99: number; max: number } {
  const s = [...ms].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 100) / 100;
  return { p50: r(percentile(s, 0.5)), p99: r(percentile(s, 0.99)), max: r(s[s.length - 1]) };
}
