// `npm run bench:lifecycle`: events/s through the lifecycle service on every backend, on distinct
// entities and on one hot entity (compare-and-swap retries under contention).
// Writes bench/results/<date>-lifecycle.json.
import { createStorage } from '../storage/open-storage.js';
import { Lifecycle } from '../app/lifecycle.js';
import type { Storage } from '../storage/types.js';
import { SQL_BACKENDS, sqlBackends } from './sql-backends.js';
import { argsOrExit, type CliSpec } from '../storage/cli-args.js';
import { writeResults } from './results-file.js';
import type { LifecycleRow } from './results-shapes.js';

export const LIFECYCLE_CLI: CliSpec = {
  command: 'npm run bench:lifecycle --',
  summary: 'Events/s through the lifecycle service on every backend, on distinct entities and on one hot entity.',
  flags: [
    { name: 'events', type: 'integer', min: 1, default: '4000', help: 'events sent per measurement' },
    { name: 'concurrency', type: 'integer', min: 1, default: '32', help: 'events in flight at once' },
  ],
};
const args = argsOrExit(LIFECYCLE_CLI);
const events = args.number('events');
const concurrency = args.number('concurrency');

// A machine whose one trigger loops on a stable state, so any number of events is accepted.
const PING = {
  meta: { machine_name: 'bench_ping', version: '1.0.0' },
  states: [
    { name: 'idle', type: 'initial' },
    { name: 'busy', type: 'stable' },
  ],
  transitions: [{ trigger: 'ping', source: ['idle', 'busy'], dest: 'busy' }],
};

async function pool(n: number, width: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

async function measureBackend(name: string, storage: Storage): Promise<LifecycleRow> {
  const lc = new Lifecycle(storage);
  await lc.installMachine(PING);
  const entities = Math.min(events, 2000);
  await pool(entities, concurrency, (i) => lc.create(`e-${i}`, { machine_name: 'bench_ping' }, null));
  await lc.create('hot', { machine_name: 'bench_ping' }, null);
  let t0 = performance.now();
  await pool(events, concurrency, async (i) => {
    const r = await lc.event(`e-${i % entities}`, { trigger: 'ping' }, null);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
  });
  const distinct = Math.round(events / ((performance.now() - t0) / 1000));
  const hotEvents = Math.max(200, Math.round(events / 4));
  let ok = 0;
  t0 = performance.now();
  await pool(hotEvents, concurrency, async () => {
    const r = await lc.event('hot', { trigger: 'ping' }, null);
    if (r.ok) ok++;
  });
  const hot = Math.round(hotEvents / ((performance.now() - t0) / 1000));
  console.log(
    `  ${name.padEnd(8)} distinct entities ${distinct} events/s; one hot entity ${hot} events/s ` +
      `(${ok}/${hotEvents} accepted)`,
  );
  return { backend: name, distinct, hot, hot_ok: ok };
}

const rows: LifecycleRow[] = [];
const backends = [
  { name: 'memory', url: 'memory:', drop: async () => {} },
  ...(await sqlBackends(new Set(SQL_BACKENDS))),
];
for (const b of backends) {
  const storage = await createStorage(b.url);
  await storage.open();
  try {
    rows.push(await measureBackend(b.name, storage));
  } finally {
    await storage.close();
    await b.drop();
  }
}
writeResults('lifecycle', { events, concurrency, rows });
