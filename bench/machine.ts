// What the figures were taken on: cores, memory, Node and database versions.
import os from 'node:os';
import { execFileSync } from 'node:child_process';

function version(cmd: string, args: string[]): string | null {
  try { return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split('\n')[0]; } catch { return null; }
}

export function machineInfo(): Record<string, unknown> {
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.cpus().length, memory_gib: Math.round(os.totalmem() / 2 ** 30),
    node: process.version, postgres: version('psql', ['--version']), mysql: version('mysql', ['--version']),
    date: new Date().toISOString().slice(0, 10),
  };
}
