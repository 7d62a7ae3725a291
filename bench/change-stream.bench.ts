// Event stream lag (#18 item 3): from a write's commit to its event at a client of
// GET /api/extras/object-changes/stream. The server runs in this process; the commit time is taken
// when the store's apply() returns (just after the commit and the wake-up of local followers), the
// event's when its bytes reach the client (fetch, same process). Three runs per backend:
//   idle   one site created at a time (5 ms apart): the lag of a lone write;
//   load   8 writers creating sites flat out: the lag while the stream keeps up with them;
//   remote (SQL) writes through a second server process on the same database, seen through the
//          change feed's poll of the counter (250 ms); measured from the write's answer there
//          (after its commit), so the figure is at most the true lag.
//
// With --streams N, N clients follow the stream at once and every one's lag counts.
//
// Run:  npm run bench:stream [-- --writes 1000] [--streams 1] [--backends memory,postgres,mysql,mysql9]
// Writes bench/results/<date>-stream-lag.json.
// With --stalled N [--batches 20] [--rounds 3]: what N clients that stop reading cost instead (stream-stalled.ts),
// written to bench/results/<date>-stream-stalled.json.
// URLs: TEST_POSTGRES_URL / TEST_MYSQL_URL (MariaDB) / TEST_MYSQL9_URL (MySQL 9), default the local servers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULTS, type Config } from '../server/config/defaults.js';
import { start, type Running } from '../server/start.js';
import type { Storage } from '../storage/types.js';
import { startProcess } from '../test/support/process.js';
import { sqlBackends } from './sql-backends.js';
import { backendsFlag } from './flags.js';
import { argsOrExit, type CliSpec } from '../storage/cli-args.js';
import { spread } from './measure.js';
import { writeResults } from './results-file.js';
import { stalledBench } from './stream-stalled.js';
import type { Spread, StreamLagRow } from './results-shapes.js';

export const STREAM_CLI: CliSpec = {
  command: 'npm run bench:stream --',
  summary:
    "Event stream lag: from a write's commit to its event at a client of GET " +
    '/api/extras/object-changes/stream (idle, under load, and from another process).',
  flags: [
    { name: 'writes', type: 'integer', min: 1, default: '1000', help: 'writes per run' },
    {
      name: 'streams',
      type: 'integer',
      min: 1,
      default: '1',
      help: "clients following the stream at once (every one's lag counts)",
    },
    backendsFlag('memory,postgres'),
    {
      name: 'stalled',
      type: 'integer',
      min: 0,
      default: '0',
      help:
        'instead: what N clients that stop reading cost a server (memory:, in its own process): RSS, kernel ' +
        'send queues, bulk create speed',
    },
    {
      name: 'batches',
      type: 'integer',
      min: 1,
      default: '20',
      help: 'with --stalled: bulk creates of 1,000 prefixes per phase',
    },
    {
      name: 'rounds',
      type: 'integer',
      min: 1,
      default: '3',
      help: 'with --stalled: rounds of alone, with the stalled clients, alone again (medians are reported)',
    },
  ],
};
const args = argsOrExit(STREAM_CLI);
const WRITES = args.number('writes');
const wanted = new Set(args.list('backends'));
const KEY = 'bench-stream-key-0123456789';
const STREAMS = args.number('streams');
const WRITERS = 8;
/** Writes through the second process (each waits a random part of the 250 ms poll cycle). */
const REMOTE_WRITES = Math.min(WRITES, 200);
const quiet = { info: () => {}, warn: () => {}, error: (m: string) => console.error(m) };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** When each seq's event reached the client (performance.now()). */
class Follower {
  readonly seen = new Map<number, number>();
  private readonly ac = new AbortController();
  private waiters: (() => void)[] = [];
  async open(url: string): Promise<void> {
    const res = await fetch(`${url}/api/extras/object-changes/stream`, {
      headers: { Authorization: `Token ${KEY}` },
      signal: this.ac.signal,
    });
    if (res.status !== 200) throw new Error(`stream: ${res.status}`);
    const body = res.body!;
    let opened!: () => void;
    const ready = new Promise<void>((r) => {
      opened = r;
    });
    void (async () => {
      const dec = new TextDecoder();
      let buf = '';
      try {
        for await (const part of body) {
          const now = performance.now();
          buf += dec.decode(part, { stream: true });
          if (buf.includes(': after seq')) opened();
          const cut = buf.lastIndexOf('\n\n');
          if (cut < 0) continue;
          for (const m of buf.slice(0, cut).matchAll(/^id: (\d+)$/gm)) this.seen.set(Number(m[1]), now);
          buf = buf.slice(cut + 2);
          for (const w of this.waiters.splice(0)) w();
        }
      } catch {
        /* closed */
      }
    })();
    await ready;
  }
  async until(seq: number, ms = 30000): Promise<void> {
    const end = Date.now() + ms;
    while (!this.seen.has(seq)) {
      if (Date.now() > end) throw new Error(`event ${seq} did not arrive`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 100);
      });
    }
  }
  close(): void {
    this.ac.abort();
  }
}

/** Records when apply() returns each batch's last seq (the commit, as this process sees it). */
function commitTimes(storage: Storage): Map<number, number> {
  const at = new Map<number, number>();
  const apply = storage.apply.bind(storage);
  storage.apply = async (ops, opts) => {
    const r = await apply(ops, opts);
    if (r.seq !== null) at.set(r.seq, performance.now());
    return r;
  };
  return at;
}

async function createSite(url: string, name: string): Promise<{ seq: number; answered: number }> {
  const res = await fetch(`${url}/api/dcim/sites/`, {
    method: 'POST',
    headers: { Authorization: `Token ${KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, slug: name }),
  });
  const answered = performance.now();
  if (res.status !== 201) throw new Error(`create ${name}: ${res.status} ${await res.text()}`);
  return { seq: Number(res.headers.get('x-change-seq')), answered };
}

/** The lags' spread, printed as it is kept. */
function summary(what: string, lags: number[], extra = ''): Spread {
  const s = spread(lags);
  console.log(`${what} n=${lags.length} p50 ${s.p50} ms, p99 ${s.p99} ms, max ${s.max} ms${extra}`);
  return s;
}

async function bench(name: string, storageUrl: string): Promise<StreamLagRow> {
  const config = {
    ...DEFAULTS,
    port: 0,
    demoData: false,
    storage: storageUrl,
    tokens: [{ key: KEY, permissions: ['*'] }],
  } as Config;
  const running: Running = await start(config, quiet);
  const committed = commitTimes(running.ctx.storage);
  const followers = Array.from({ length: STREAMS }, () => new Follower());
  for (const f of followers) await f.open(running.url);
  const lagsOf = async (seqs: readonly number[], from: (seq: number) => number): Promise<number[]> => {
    const out: number[] = [];
    for (const f of followers) {
      await f.until(Math.max(...seqs));
      for (const s of seqs) out.push(f.seen.get(s)! - from(s));
    }
    return out;
  };
  try {
    // idle: one write at a time
    const idle: number[] = [];
    for (let i = 0; i < WRITES; i++) {
      const { seq } = await createSite(running.url, `idle-${i}`);
      idle.push(...(await lagsOf([seq], (s) => committed.get(s)!)));
      await sleep(5);
    }
    const idleLag = summary(`${name} idle:  `, idle);
    // load: WRITERS writers flat out
    const seqs: number[] = [];
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = w; i < WRITES; i += WRITERS) seqs.push((await createSite(running.url, `load-${i}`)).seq);
      }),
    );
    const perSecond = Math.round(WRITES / ((performance.now() - t0) / 1000));
    const loadLag = summary(
      `${name} load:  `,
      await lagsOf(seqs, (s) => committed.get(s)!),
      ` (${perSecond} writes/s)`,
    );
    const row = { backend: name, idle: idleLag, load: loadLag, load_writes_per_s: perSecond };
    // remote: writes through a second process on the same database
    if (storageUrl.startsWith('memory')) return { ...row, remote: null };
    const cfg = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-stream-bench-')), 'config.json');
    fs.writeFileSync(cfg, JSON.stringify({ tokens: [{ key: KEY, permissions: ['*'] }] }));
    const other = await startProcess(storageUrl, cfg);
    try {
      const remote: number[] = [];
      for (let i = 0; i < REMOTE_WRITES; i++) {
        const { seq, answered } = await createSite(other.url, `remote-${i}`);
        remote.push(...(await lagsOf([seq], () => answered)));
        await sleep(Math.random() * 300); // writes at random points of the poll cycle
      }
      return { ...row, remote: summary(`${name} remote:`, remote, " (from the other process's answer)") };
    } finally {
      other.child.kill('SIGTERM');
    }
  } finally {
    for (const f of followers) f.close();
    await running.close();
  }
}

async function main(): Promise<void> {
  console.log(`event stream lag, commit -> event at the client, ${WRITES} site creates per run, ${STREAMS} stream(s)`);
  const rows: StreamLagRow[] = [];
  if (wanted.has('memory')) rows.push(await bench('memory', 'memory:'));
  for (const b of await sqlBackends(wanted)) {
    try {
      rows.push(await bench(b.name, b.url));
    } finally {
      await b.drop();
    }
  }
  writeResults('stream-lag', {
    writes: WRITES,
    remote_writes: REMOTE_WRITES,
    writers: WRITERS,
    streams: STREAMS,
    rows,
  });
}

(args.number('stalled') > 0
  ? stalledBench(args.number('stalled'), args.number('batches'), 1000, args.number('rounds'))
  : main()
).catch((e) => {
  console.error(e);
  process.exit(1);
});
