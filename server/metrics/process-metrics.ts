// Process basics under the names Prometheus' Node.js client uses (dashboards know them): memory,
// CPU time, start time, event loop lag. Read at scrape time; the event loop delay histogram
// (perf_hooks, sampled every 10 ms by a libuv timer) covers the time since the previous scrape.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { Registry } from './registry.js';

const START_SECONDS = Math.round(Date.now() / 1000 - process.uptime());

/** One sampler per process, made with the first registry (its timer does not keep the process alive). */
let sampler: IntervalHistogram | null = null;

export function processMetrics(registry: Registry): void {
  const rss = registry.gauge('process_resident_memory_bytes', 'Resident memory size in bytes').child();
  const cpuUser = registry.counter('process_cpu_user_seconds_total', 'User CPU time spent in seconds').child();
  const cpuSystem = registry.counter('process_cpu_system_seconds_total', 'System CPU time spent in seconds').child();
  const start = registry
    .gauge('process_start_time_seconds', 'Start time of the process since the Unix epoch in seconds')
    .child();
  const heapUsed = registry.gauge('nodejs_heap_size_used_bytes', 'V8 heap in use in bytes').child();
  const heapTotal = registry.gauge('nodejs_heap_size_total_bytes', 'V8 heap size in bytes').child();
  const external = registry
    .gauge('nodejs_external_memory_bytes', 'Memory of C++ objects bound to JavaScript objects (buffers) in bytes')
    .child();
  const lag = registry
    .gauge('nodejs_eventloop_lag_seconds', 'How late a callback queued at this scrape ran (setImmediate), in seconds')
    .child();
  const lagP99 = registry
    .gauge(
      'nodejs_eventloop_lag_p99_seconds',
      'Event loop delay, 99th percentile since the previous scrape (sampled every 10 ms), in seconds',
    )
    .child();
  const lagMax = registry
    .gauge('nodejs_eventloop_lag_max_seconds', 'Event loop delay, largest since the previous scrape, in seconds')
    .child();
  registry
    .gauge('nodejs_version_info', 'Node.js version running the service', ['version'])
    .child(process.version)
    .set(1);
  start.set(START_SECONDS);

  if (!sampler) {
    sampler = monitorEventLoopDelay({ resolution: 10 });
    sampler.enable();
  }
  const delay = sampler;
  registry.collect(async () => {
    const mem = process.memoryUsage();
    rss.set(mem.rss);
    heapUsed.set(mem.heapUsed);
    heapTotal.set(mem.heapTotal);
    external.set(mem.external);
    const cpu = process.cpuUsage();
    cpuUser.value = cpu.user / 1e6;
    cpuSystem.value = cpu.system / 1e6;
    const t0 = performance.now();
    lag.set(await new Promise<number>((resolve) => setImmediate(() => resolve((performance.now() - t0) / 1000))));
    // nanoseconds; with no sample yet (a scrape within 10 ms of the last) NaN, as nothing was measured
    lagP99.set(delay.count ? delay.percentile(99) / 1e9 : NaN);
    lagMax.set(delay.count ? delay.max / 1e9 : NaN);
    delay.reset();
  });
}
