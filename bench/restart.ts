// A restart of a `memory:/dir` store as bench:store reports it: the bench store's tables written
// as compaction writes them (snapshot.bin, storage/memory/column-snapshot.ts), then opened by a
// fresh Node process (bench/restart-child.ts) with `--max-semi-space-size=64`, as `npm start`
// runs: time from that process's start (Node and modules included) to an open store, and its
// peak RSS. The server's own start (routes, tokens, listening) is not in it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESOURCES } from '../engine/schema/registry.js';
import type { MemoryStorage } from '../storage/memory/memory-storage.js';
import { writeColumnSnapshot } from '../storage/memory/column-snapshot.js';

const CHILD = fileURLToPath(new URL('./restart-child.js', import.meta.url));

export interface RestartFigures {
  readonly snapshot_mb: number;
  readonly restart_s: number;
  readonly restart_open_s: number;
  readonly restart_peak_rss_mb: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export function measureRestart(store: MemoryStorage, runs = 3): RestartFigures {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-restart-'));
  try {
    const fd = fs.openSync(path.join(dir, 'snapshot.bin'), 'w');
    try {
      writeColumnSnapshot(
        RESOURCES.map((r) => ({ resource: r.name, image: store.table(r.name).image() })),
        RESOURCES.length,
        (b) => {
          for (let off = 0; off < b.length;) off += fs.writeSync(fd, b, off);
        },
      );
    } finally {
      fs.closeSync(fd);
    }
    const bytes = fs.statSync(path.join(dir, 'snapshot.bin')).size;
    const seen: { start_to_open_s: number; open_s: number; peak_rss_mb: number }[] = [];
    for (let i = 0; i < runs; i++) {
      const r = spawnSync(process.execPath, ['--max-semi-space-size=64', CHILD, dir], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`restart child failed: ${r.stderr}`);
      seen.push(JSON.parse(r.stdout.trim().split('\n').pop()!));
    }
    return {
      snapshot_mb: Math.round(bytes / 2 ** 20),
      restart_s: +median(seen.map((s) => s.start_to_open_s)).toFixed(2),
      restart_open_s: +median(seen.map((s) => s.open_s)).toFixed(2),
      restart_peak_rss_mb: median(seen.map((s) => s.peak_rss_mb)),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
