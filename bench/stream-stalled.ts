// What clients of the event stream that stop reading cost (#34 item 4): a server process (memory:,
// default settings) takes bulk creates of prefixes alone, then with N stream clients that connected
// and never read a byte, then alone again once the server has dropped them; that round is repeated,
// each stalled phase judged against the alone phases just before and just after it, so that a
// change in the machine's load between phases does not decide the ratio. Each phase gives
// prefixes/s and the server's CPU per 1,000 prefixes (the load of a shared machine moves the first
// far more than the second). Sampled every 250 ms from the first clients' connection on: the
// server's RSS, and its stream sockets' kernel send queues as `ss -tm` shows them (Send-Q: bytes;
// skmem w: what the kernel allocated for them). The clients run in this process; the server in its
// own, so its RSS and CPU are its alone. BENCH_SERVER_NODE_FLAGS adds node flags to the server's
// (`--cpu-prof --cpu-prof-dir=/tmp/p`); the phases' times on the monotonic clock (as a profile's) are kept.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net, { type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DEFAULTS } from '../server/config/defaults.js';
import { startProcess } from '../test/support/process.js';
import { cpuMsOf } from './process-cpu.js';
import { writeResults } from './results-file.js';
import type { StalledPhase, StalledRound, StalledSample } from './results-shapes.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const r2 = (v: number) => Math.round(v * 100) / 100;
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** Microseconds on the monotonic clock, as a V8 CPU profile's timestamps. */
const monoUs = () => Number(process.hrtime.bigint() / 1000n);

/** The server's RSS in MB (VmRSS). */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : 0;
}

/**
 * The server's side of the connections from the ports in `peers` (the stalled clients'): count, Send-Q and skmem w
 * summed.
 */
async function sockets(port: number, peers: ReadonlySet<number>): Promise<{ n: number; sendQ: number; w: number }> {
  const out = await new Promise<string>((resolve, reject) =>
    execFile(
      'ss',
      ['-Htmn', 'state', 'established', 'src', `127.0.0.1:${port}`],
      { maxBuffer: 64 << 20 },
      (e, stdout) => (e ? reject(e) : resolve(stdout)),
    ),
  );
  let n = 0,
    sendQ = 0,
    w = 0;
  // Each socket: `Recv-Q Send-Q local peer` then, on the next line, `skmem:(r0,rb…,t0,tb…,f0,w0,o0,bl0,d0)`.
  const lines = out.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const cols = lines[i].trim().split(/\s+/);
    if (cols.length < 4 || !/^\d+$/.test(cols[1])) continue;
    const peer = Number(cols[3].slice(cols[3].lastIndexOf(':') + 1));
    const mem = /skmem:\(([^)]*)\)/.exec(lines[i] + (lines[i + 1] ?? ''));
    if (!peers.has(peer)) continue;
    n++;
    sendQ += Number(cols[1]);
    w += Number(/(?:^|,)w(\d+)/.exec(mem?.[1] ?? '')?.[1] ?? 0);
  }
  return { n, sendQ, w };
}

/** A client that sends its request and never reads. */
function stalled(port: number, key: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => {
      s.write(
        `GET /api/extras/object-changes/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token ${key}\r\n\r\n`,
      );
      resolve(s);
    });
    s.on('error', reject); // also the reset of a dropped stream, once connected: ignored
  });
}

interface Server {
  readonly url: string;
  readonly key: string;
  readonly pid: number;
}
let prefixNo = 0;

/**
 * `batches` bulk creates of `size` prefixes each, one after the other: prefixes/s, the server's CPU per 1,000, each
 * batch's ms.
 */
async function bulk(
  s: Server,
  batches: number,
  size: number,
): Promise<Omit<StalledPhase, 'streams_at_start' | 'streams_at_end'>> {
  const batch_ms: number[] = [];
  const load = os.loadavg()[0];
  const from_us = monoUs();
  const cpu0 = cpuMsOf(s.pid);
  const t0 = performance.now();
  for (let b = 0; b < batches; b++) {
    const body = Array.from({ length: size }, () => {
      const i = prefixNo++;
      return { prefix: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}/32` };
    });
    const t = performance.now();
    const res = await fetch(`${s.url}/api/ipam/prefixes/`, {
      method: 'POST',
      headers: { Authorization: `Token ${s.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`bulk create: ${res.status} ${(await res.text()).slice(0, 300)}`);
    await res.arrayBuffer();
    batch_ms.push(Math.round(performance.now() - t));
  }
  const n = batches * size;
  return {
    prefixes_per_s: Math.round(n / ((performance.now() - t0) / 1000)),
    server_cpu_ms_per_1000: r2(((cpuMsOf(s.pid) - cpu0) / n) * 1000),
    batch_ms,
    load_average_1m: r2(load),
    from_us,
    to_us: monoUs(),
  };
}

/** The round's figure against the alone phases around it: its value over their mean. */
const against = (v: number, before: number, after: number) => r2(v / ((before + after) / 2));

/** A bulk phase's figures (the stream counts are added where streams are connected). */
type Bulk = Awaited<ReturnType<typeof bulk>>;
/** How many stalled clients, and the bulk creates of each phase. */
interface Shape {
  readonly clients: number;
  readonly batches: number;
  readonly size: number;
}
/** The server under test, the stalled clients' sockets (and their ports), the samples taken, from when (t0). */
interface Rig {
  readonly s: Server;
  readonly port: number;
  readonly open: Socket[];
  readonly ports: Set<number>;
  readonly samples: StalledSample[];
  readonly t0: number;
}

export async function stalledBench(clients: number, batches: number, size: number, rounds: number): Promise<void> {
  const key = 'bench-stream-stalled-key-0123456789';
  const cfg = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-stream-stalled-')), 'config.json');
  fs.writeFileSync(cfg, JSON.stringify({ tokens: [{ key, permissions: ['*'] }] }));
  // As `npm start` runs it, plus BENCH_SERVER_NODE_FLAGS.
  const nodeArgs = [
    '--max-semi-space-size=64',
    ...(process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean),
  ];
  const proc = await startProcess('memory:', cfg, {}, nodeArgs);
  const port = Number(new URL(proc.url).port);
  const s: Server = { url: proc.url, key, pid: proc.child.pid! };
  const samples: StalledSample[] = [];
  const open: Socket[] = [];
  const ports = new Set<number>();
  const shape: Shape = { clients, batches, size };
  let sampler: Sampler | null = null;
  try {
    await bulk(s, 3, size); // warm-up
    let alone = await bulk(s, batches, size);
    await sleep(1000);
    const idleRss = rssMb(s.pid);
    const t0 = performance.now();
    console.log(
      `alone: ${alone.prefixes_per_s} prefixes/s, ${alone.server_cpu_ms_per_1000} ms server CPU per 1,000 ` +
        `(${batches} batches of ${size}), RSS ${idleRss} MB`,
    );
    const out: StalledRound[] = [];
    const rig: Rig = { s, port, open, ports, samples, t0 };
    sampler = startSampler(rig);
    for (let r = 0; r < rounds; r++) {
      const round = await oneRound(rig, shape, r, alone);
      out.push(round);
      alone = round.after;
    }
    sampler.stop();
    await sampler.done;
    const row = summary(out, shape, rounds, idleRss);
    console.log(row);
    writeResults('stream-stalled', { ...row, round_figures: out, samples });
  } finally {
    sampler?.stop();
    for (const c of open) c.destroy();
    proc.child.kill('SIGTERM');
  }
}

interface Sampler {
  stop(): void;
  readonly done: Promise<void>;
}

/** Every 250 ms until stopped: the server's RSS and its stream sockets' kernel queues. */
function startSampler({ s, port, ports, samples, t0 }: Rig): Sampler {
  let sampling = true;
  const done = (async () => {
    while (sampling) {
      const k = await sockets(port, ports);
      samples.push({
        t_ms: Math.round(performance.now() - t0),
        rss_mb: rssMb(s.pid),
        streams: k.n,
        send_q_mib: +(k.sendQ / 2 ** 20).toFixed(1),
        skmem_w_mib: +(k.w / 2 ** 20).toFixed(1),
      });
      await sleep(250);
    }
  })();
  return { stop: () => (sampling = false), done };
}

/** One round: clients connect and stall, bulk creates while they fill and once they are full, then alone again. */
async function oneRound(rig: Rig, shape: Shape, r: number, alone: Bulk): Promise<StalledRound> {
  const { s, port, open, ports, samples, t0 } = rig;
  const rss_before_mb = rssMb(s.pid);
  const connect_ms = Math.round(performance.now() - t0);
  for (let i = 0; i < shape.clients; i++) open.push(await stalled(port, s.key));
  for (const c of open) ports.add(c.localPort!);
  await sleep(1000);
  const { filling, full, loaded } = await fillThenStall(rig, shape);
  // The server drops them after STREAM_DRAIN_TIMEOUT_MS without progress, then the 5 s grace of their final event.
  const until = performance.now() + DEFAULTS.streamDrainTimeoutMs + 5000 + 10_000;
  while (performance.now() < until && (await sockets(port, ports)).n > 0) await sleep(250);
  const gone_ms = Math.round(performance.now() - t0);
  const left = (await sockets(port, ports)).n;
  for (const c of open.splice(0)) c.destroy();
  await sleep(1000);
  const after = await bulk(s, shape.batches, shape.size);
  const during = samples.filter((x) => x.t_ms >= connect_ms && x.t_ms <= gone_ms);
  const round: StalledRound = {
    alone,
    filling,
    stalled: loaded,
    after,
    streams_left_by_server: left,
    dropped_after_s: r2((gone_ms - connect_ms) / 1000),
    rss_before_mb,
    peak_rss_mb: Math.max(rss_before_mb, ...during.map((x) => x.rss_mb)),
    peak_send_q_mib: Math.max(0, ...during.map((x) => x.send_q_mib)),
    peak_skmem_w_mib: Math.max(0, ...during.map((x) => x.skmem_w_mib)),
    ...ratios(alone, filling, loaded, after, shape.batches * shape.size),
  };
  printRound(r, shape.clients, round, full.n);
  return round;
}

/**
 * Just connected, the clients take bytes until their receive buffers and the server's share are full (a cost
 * once per client) ... then they take nothing, until the server drops them: what each change costs with them
 * connected.
 */
async function fillThenStall({ s, port, ports }: Rig, { batches, size }: Shape) {
  const at = (await sockets(port, ports)).n;
  const filling = {
    ...(await bulk(s, batches, size)),
    streams_at_start: at,
    streams_at_end: (await sockets(port, ports)).n,
  };
  let q = (await sockets(port, ports)).sendQ;
  for (let i = 0; i < 20; i++) {
    await sleep(250);
    const q2 = (await sockets(port, ports)).sendQ;
    if (q2 === q) break;
    q = q2;
  }
  const full = await sockets(port, ports);
  const loaded = {
    ...(await bulk(s, batches, size)),
    streams_at_start: full.n,
    streams_at_end: (await sockets(port, ports)).n,
    send_q_mib_at_start: +(full.sendQ / 2 ** 20).toFixed(1),
    send_q_mib_at_end: +((await sockets(port, ports)).sendQ / 2 ** 20).toFixed(1),
  };
  return { filling, full, loaded };
}

/** The filling and stalled phases against the alone phases around them. */
function ratios(alone: Bulk, filling: Bulk, loaded: Bulk, after: Bulk, prefixes: number) {
  return {
    speed_ratio: against(loaded.prefixes_per_s, alone.prefixes_per_s, after.prefixes_per_s),
    cpu_ratio: against(loaded.server_cpu_ms_per_1000, alone.server_cpu_ms_per_1000, after.server_cpu_ms_per_1000),
    fill_speed_ratio: against(filling.prefixes_per_s, alone.prefixes_per_s, after.prefixes_per_s),
    fill_cpu_ratio: against(filling.server_cpu_ms_per_1000, alone.server_cpu_ms_per_1000, after.server_cpu_ms_per_1000),
    fill_extra_cpu_ms: Math.round(
      ((filling.server_cpu_ms_per_1000 - (alone.server_cpu_ms_per_1000 + after.server_cpu_ms_per_1000) / 2) *
        prefixes) /
        1000,
    ),
  };
}

function printRound(r: number, clients: number, round: StalledRound, fullN: number): void {
  const { filling, stalled: loaded, after } = round;
  console.log(
    `round ${r + 1}: ${clients} clients just connected: ${filling.prefixes_per_s} prefixes/s ` +
      `(${round.fill_speed_ratio}x), ${filling.server_cpu_ms_per_1000} ms CPU per 1,000 ` +
      `(${round.fill_cpu_ratio}x, +${round.fill_extra_cpu_ms} ms in all); ` +
      (`full (${fullN} connected at the start, ${loaded.streams_at_end} at the end, Send-Q ` +
        `${loaded.send_q_mib_at_start} -> ${loaded.send_q_mib_at_end} MiB): ${loaded.prefixes_per_s} ` +
        `prefixes/s (${round.speed_ratio}x), `) +
      (`${loaded.server_cpu_ms_per_1000} ms CPU per 1,000 (${round.cpu_ratio}x); after: ` +
        `${after.prefixes_per_s} prefixes/s, ${after.server_cpu_ms_per_1000} ms; `) +
      (`dropped after ${round.dropped_after_s} s; RSS +${round.peak_rss_mb - round.rss_before_mb} MB; Send-Q ` +
        `${round.peak_send_q_mib} MiB at most; load ${loaded.load_average_1m}`),
  );
}

/** The rounds' medians (and maxima for what grows). */
function summary(out: StalledRound[], { clients, batches, size }: Shape, rounds: number, idleRss: number) {
  const med = (f: (r: StalledRound) => number) => r2(median(out.map(f)));
  return {
    clients,
    batches,
    batch_size: size,
    rounds,
    alone_prefixes_per_s: med((r) => r.alone.prefixes_per_s),
    stalled_prefixes_per_s: med((r) => r.stalled.prefixes_per_s),
    after_prefixes_per_s: med((r) => r.after.prefixes_per_s),
    alone_cpu_ms_per_1000: med((r) => r.alone.server_cpu_ms_per_1000),
    stalled_cpu_ms_per_1000: med((r) => r.stalled.server_cpu_ms_per_1000),
    after_cpu_ms_per_1000: med((r) => r.after.server_cpu_ms_per_1000),
    speed_ratio: med((r) => r.speed_ratio),
    cpu_ratio: med((r) => r.cpu_ratio),
    filling_prefixes_per_s: med((r) => r.filling.prefixes_per_s),
    filling_cpu_ms_per_1000: med((r) => r.filling.server_cpu_ms_per_1000),
    fill_speed_ratio: med((r) => r.fill_speed_ratio),
    fill_cpu_ratio: med((r) => r.fill_cpu_ratio),
    fill_extra_cpu_ms: med((r) => r.fill_extra_cpu_ms),
    idle_rss_mb: idleRss,
    peak_rss_growth_mb: Math.max(...out.map((r) => r.peak_rss_mb - r.rss_before_mb)),
    peak_send_q_mib: Math.max(...out.map((r) => r.peak_send_q_mib)),
    peak_skmem_w_mib: Math.max(...out.map((r) => r.peak_skmem_w_mib)),
    streams_at_end: Math.max(...out.map((r) => r.streams_left_by_server)),
    dropped_after_s: Math.max(...out.map((r) => r.dropped_after_s)),
    load_average_1m: {
      min: Math.min(...out.map((r) => r.stalled.load_average_1m)),
      max: Math.max(...out.map((r) => r.stalled.load_average_1m)),
    },
    max_buffer_bytes: DEFAULTS.streamMaxBufferBytes,
    drain_timeout_ms: DEFAULTS.streamDrainTimeoutMs,
  };
}
