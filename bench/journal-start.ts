// The first start of the server on a `memory:/dir` journal as `npm run bench:data` leaves it (#34
// item 5: within 5 s for 1M prefixes): the dataset's batches written as the store journals them
// (storage/memory/journal-format.ts, no snapshot), then `npm start`'s command run on it, timed from
// the spawn to its `listening on` line: Node and modules, the replay, the compaction that writes
// the server's own start (it sorts the indexes and writes the snapshot after that line; the time
// from the line to the answer of a first page is measured too). Then a second start of the same directory, from that
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
  readonly journal_start_s: number;
  readonly journal_start_cpu_s: number;
  /**
   * From `listening on` to the answer of a first page of prefixes (the start sorts its indexes and writes its snapshot
   * after listening).
   */
  readonly journal_first_page_s: number;
  /** The next start, from the snapshot the first one wrote. */
  readonly snapshot_start_s: number;
  readonly snapshot_start_cpu_s: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** CPU seconds a process has used so far (Linux /proc). */
function cpuSeconds(pid: number): number {
  const fields = fs
    .readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

interface Timed {
  readonly s: number;
  readonly cpu: number;
  readonly firstPage: number | null;
}

/** The token the started servers are configured with (CONFIG_FILE): the first page is asked for with it. */
const KEY = 'journal-start-bench-key-0123456789';

/**
 * Starts the server on `dir` as `npm start` does (with `nodeFlags`, e.g. --cpu-prof) and the
 * configuration file `config`; resolves with the times at its start line and of a first page of
 * prefixes asked for as soon as it listens, once it has exited.
 */
function timedStart(dir: string, config: string, nodeFlags: readonly string[]): Promise<Timed> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--max-semi-space-size=64', ...nodeFlags, MAIN], {
    env: {
      ...process.env,
      STORAGE_URL: `memory:${dir}`,
      PORT: '0',
      HOST: '127.0.0.1',
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      CONFIG_FILE: config,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '',
      err = '',
      took: { s: number; cpu: number } | null = null,
      firstPage: number | null = null,
      asked = false;
    const stop = () => child.kill('SIGTERM');
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (!took && out.includes('listening on'))
        took = { s: (performance.now() - t0) / 1000, cpu: cpuSeconds(child.pid!) };
      if (!took || asked) return;
      const m = /listening on (\S+)/.exec(out);
      if (!m) return;
      asked = true;
      const t1 = performance.now();
      fetch(`${m[1]}/api/ipam/prefixes/?limit=50`, { headers: { Authorization: `Token ${KEY}` } })
        .then(async (res) => {
          await res.arrayBuffer();
          if (res.status === 200) firstPage = (performance.now() - t1) / 1000;
        })
        .finally(stop);
    });
    child.on('exit', (code) =>
      took
        ? resolve({ ...took, firstPage })
        : reject(new Error(`server exited with ${code} before listening: ${err.slice(-500)}`)),
    );
  });
}

/** `texts`: the dataset's batches as JSON (bench/store.bench.ts keeps them so). */
export async function measureJournalStart(
  texts: readonly string[],
  runs = 3,
  nodeFlags: readonly string[] = [],
): Promise<JournalStartFigures> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-journal-start-'));
  try {
    const journal = path.join(root, 'journal.jsonl');
    const fd = fs.openSync(journal, 'w');
    try {
      for (const text of texts) {
        const rec = encodeRecord(JSON.parse(text) as WriteOp[]);
        for (let off = 0; off < rec.length;) off += fs.writeSync(fd, rec, off);
      }
    } finally {
      fs.closeSync(fd);
    }
    const config = path.join(root, 'config.json');
    fs.writeFileSync(config, JSON.stringify({ tokens: [{ key: KEY, permissions: ['*'] }] }));
    const first: Timed[] = [],
      second: Timed[] = [];
    for (let i = 0; i < runs; i++) {
      const dir = path.join(root, `run-${i}`);
      fs.mkdirSync(dir);
      fs.copyFileSync(journal, path.join(dir, 'journal.jsonl'));
      first.push(await timedStart(dir, config, nodeFlags));
      second.push(await timedStart(dir, config, nodeFlags));
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const r2 = (x: number) => +x.toFixed(2);
    return {
      journal_mb: Math.round(fs.statSync(journal).size / 2 ** 20),
      journal_start_s: r2(median(first.map((x) => x.s))),
      journal_start_cpu_s: r2(median(first.map((x) => x.cpu))),
      journal_first_page_s: r2(
        median(
          first.map((x) => {
            if (x.firstPage === null) throw new Error('the first start answered no first page');
            return x.firstPage;
          }),
        ),
      ),
      snapshot_start_s: r2(median(second.map((x) => x.s))),
      snapshot_start_cpu_s: r2(median(second.map((x) => x.cpu))),
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
