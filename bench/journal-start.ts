// The first start of the server on a `memory:/dir` journal as `npm run bench:data` leaves it (#34
// item 5: within 5 s for 1M prefixes): the dataset's batches written as the store journals them
// (storage/memory/journal-format.ts, no snapshot), then `npm start`'s command run on it, timed from
// the spawn to its `listening on` line: Node and modules, the replay, the compaction that writes
// the snapshot, the server's own start. Then a second start of the same directory, from that
// snapshot. Each run starts from a fresh copy of the journal; the median of `runs`. The CPU time
// of the server process at its start line (user + system, every thread) moves less than the wall
// time on a shared machine.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeRecord } from '../storage/memory/journal-format.js';
import type { WriteOp } from '../storage/types.js';

const MAIN = fileURLToPath(new URL('../server/main.js', import.meta.url));

export interface JournalStartFigures {
  readonly journal_mb: number;
  /** Spawn to `listening on`, on the journal alone, and its CPU time. */
  readonly journal_start_s: number; readonly journal_start_cpu_s: number;
  /** The next start, from the snapshot the first one wrote. */
  readonly snapshot_start_s: number; readonly snapshot_start_cpu_s: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** CPU seconds a process has used so far (Linux /proc). */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

/** Starts the server on `dir` as `npm start` does; resolves at its start line with the times, once it has exited. */
function timedStart(dir: string): Promise<{ s: number; cpu: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--max-semi-space-size=64', MAIN], {
    env: { ...process.env, STORAGE_URL: `memory:${dir}`, PORT: '0', HOST: '127.0.0.1', DEMO_DATA: 'false', LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '', err = '', took: { s: number; cpu: number } | null = null;
    child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (took || !out.includes('listening on')) return;
      took = { s: (performance.now() - t0) / 1000, cpu: cpuSeconds(child.pid!) };
      child.kill('SIGTERM');
    });
    child.on('exit', (code) => (took ? resolve(took) : reject(new Error(`server exited with ${code} before listening: ${err.slice(-500)}`))));
  });
}

/** `texts`: the dataset's batches as JSON (bench/store.bench.ts keeps them so). */
export async function measureJournalStart(texts: readonly string[], runs = 3): Promise<JournalStartFigures> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-journal-start-'));
  try {
    const journal = path.join(root, 'journal.jsonl');
    const fd = fs.openSync(journal, 'w');
    try {
      for (const text of texts) {
        const rec = encodeRecord(JSON.parse(text) as WriteOp[]);
        for (let off = 0; off < rec.length;) off += fs.writeSync(fd, rec, off);
      }
    } finally { fs.closeSync(fd); }
    const first: { s: number; cpu: number }[] = [], second: { s: number; cpu: number }[] = [];
    for (let i = 0; i < runs; i++) {
      const dir = path.join(root, `run-${i}`);
      fs.mkdirSync(dir);
      fs.copyFileSync(journal, path.join(dir, 'journal.jsonl'));
      first.push(await timedStart(dir));
      second.push(await timedStart(dir));
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const r2 = (x: number) => +x.toFixed(2);
    return {
      journal_mb: Math.round(fs.statSync(journal).size / 2 ** 20),
      journal_start_s: r2(median(first.map((x) => x.s))), journal_start_cpu_s: r2(median(first.map((x) => x.cpu))),
      snapshot_start_s: r2(median(second.map((x) => x.s))), snapshot_start_cpu_s: r2(median(second.map((x) => x.cpu))),
    };
  } finally { fs.rmSync(root, { recursive: true, force: true }); }
}
