// What clients of the event stream that stop reading cost (#34 item 4): a server process (memory:,
// default settings) takes bulk creates of prefixes alone, then again with N stream clients that
// connected and never read a byte. Sampled every 250 ms from before the second run until the
// streams are gone: the server's RSS, and its stream sockets' kernel send queues as `ss -tm` shows
// them (Send-Q: bytes; skmem w: what the kernel allocated for them). The clients run in this
// process; the server in its own, so its RSS is its alone.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net, { type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DEFAULTS } from '../server/config/defaults.js';
import { startProcess } from '../test/support/process.js';
import { writeResults } from './results-file.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Sample { readonly t_ms: number; readonly rss_mb: number; readonly streams: number; readonly send_q_mib: number; readonly skmem_w_mib: number }

/** The server's RSS in MB (VmRSS). */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : 0;
}

/** The server's side of the connections from the ports in `peers` (the stalled clients'): count, Send-Q and skmem w summed. */
async function sockets(port: number, peers: ReadonlySet<number>): Promise<{ n: number; sendQ: number; w: number }> {
  const out = await new Promise<string>((resolve, reject) => execFile('ss', ['-Htmn', 'state', 'established', 'src', `127.0.0.1:${port}`], { maxBuffer: 64 << 20 },
    (e, stdout) => (e ? reject(e) : resolve(stdout))));
  let n = 0, sendQ = 0, w = 0;
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
      s.write(`GET /api/extras/object-changes/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token ${key}\r\n\r\n`);
      resolve(s);
    });
    s.on('error', reject);
  });
}

let prefixNo = 0;
/** `batches` bulk creates of `size` prefixes each, one after the other; prefixes/s and each batch's ms. */
async function bulk(url: string, key: string, batches: number, size: number): Promise<{ per_s: number; batch_ms: number[] }> {
  const batch_ms: number[] = [];
  const t0 = performance.now();
  for (let b = 0; b < batches; b++) {
    const body = Array.from({ length: size }, () => { const i = prefixNo++; return { prefix: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}/32` }; });
    const t = performance.now();
    const res = await fetch(`${url}/api/ipam/prefixes/`, { method: 'POST', headers: { Authorization: `Token ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`bulk create: ${res.status} ${(await res.text()).slice(0, 300)}`);
    await res.arrayBuffer();
    batch_ms.push(Math.round(performance.now() - t));
  }
  return { per_s: Math.round((batches * size) / ((performance.now() - t0) / 1000)), batch_ms };
}

export async function stalledBench(clients: number, batches: number, size: number): Promise<void> {
  const key = 'bench-stream-stalled-key-0123456789';
  const cfg = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-stream-stalled-')), 'config.json');
  fs.writeFileSync(cfg, JSON.stringify({ tokens: [{ key, permissions: ['*'] }] }));
  const server = await startProcess('memory:', cfg);
  const port = Number(new URL(server.url).port);
  const pid = server.child.pid!;
  const samples: Sample[] = [];
  const open: Socket[] = [];
  try {
    await bulk(server.url, key, 3, size); // warm-up
    const idle = await bulk(server.url, key, batches, size);
    await sleep(1000);
    const idleRss = rssMb(pid);
    console.log(`idle: ${idle.per_s} prefixes/s (${batches} batches of ${size}), RSS ${idleRss} MB`);
    for (let i = 0; i < clients; i++) open.push(await stalled(port, key));
    await sleep(1000);
    const streamPorts = new Set(open.map((c) => c.localPort!));
    const t0 = performance.now();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const s = await sockets(port, streamPorts);
        samples.push({ t_ms: Math.round(performance.now() - t0), rss_mb: rssMb(pid), streams: s.n, send_q_mib: +(s.sendQ / 2 ** 20).toFixed(1), skmem_w_mib: +(s.w / 2 ** 20).toFixed(1) });
        await sleep(250);
      }
    })();
    const loaded = await bulk(server.url, key, batches, size);
    console.log(`with ${clients} stalled clients: ${loaded.per_s} prefixes/s`);
    // The streams have STREAM_DRAIN_TIMEOUT_MS, then the 5 s grace of their final event.
    const until = performance.now() + DEFAULTS.streamDrainTimeoutMs + 5000 + 3000;
    while (performance.now() < until) await sleep(250);
    sampling = false;
    await sampler;
    const after = await bulk(server.url, key, batches, size);
    const peak = (f: (s: Sample) => number) => Math.max(...samples.map(f));
    const last = samples[samples.length - 1];
    const row = {
      clients, batches, batch_size: size,
      idle_prefixes_per_s: idle.per_s, stalled_prefixes_per_s: loaded.per_s, after_prefixes_per_s: after.per_s,
      idle_rss_mb: idleRss, peak_rss_mb: peak((s) => s.rss_mb),
      peak_send_q_mib: peak((s) => s.send_q_mib), peak_skmem_w_mib: peak((s) => s.skmem_w_mib),
      streams_at_end: last.streams, seconds_sampled: Math.round(last.t_ms / 1000),
      max_buffer_bytes: DEFAULTS.streamMaxBufferBytes, drain_timeout_ms: DEFAULTS.streamDrainTimeoutMs,
    };
    console.log(row);
    writeResults('stream-stalled', { ...row, samples });
  } finally {
    for (const s of open) s.destroy();
    server.child.kill('SIGTERM');
  }
}
