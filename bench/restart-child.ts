// Opens the `memory:/dir` store given as its argument and prints, as one JSON line, the time from
// this process's start to the open store, the open alone, and the peak RSS (bench/restart.ts).
import fs from 'node:fs';
import { MemoryStorage } from '../storage/memory/memory-storage.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: restart-child.js <dir>');
const t0 = performance.now();
const store = new MemoryStorage(dir, { log: () => {} });
await store.open();
const t1 = performance.now(); // since the process started (performance.timeOrigin)
const hwm = Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN);
await store.close();
console.log(
  JSON.stringify({ start_to_open_s: t1 / 1000, open_s: (t1 - t0) / 1000, peak_rss_mb: Math.round(hwm / 1024) }),
);
