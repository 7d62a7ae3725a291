// What the figures were taken on: cores, memory, Node and database versions.
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import type { Machine } from './results-shapes.js';

function version(cmd: string, args: string[]): string | null {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .trim()
      .split('\n')[0];
  } catch {
    return null;
  }
}

// Other work on the machine moves every figure: the results say how busy it was when the bench
// began (this module loads at a bench's start), before the bench's own work counts in it.
const loadAtStart = Math.round(os.loadavg()[0] * 10) / 10;

export function machineInfo(): Machine {
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memory_gib: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    postgres: version('psql', ['--version']),
    mysql: version('mysql', ['--version']),
    date: new Date().toISOString().slice(0, 10),
    load_average_1m: loadAtStart,
  };
}
