// CPU time of processes on this machine (Linux /proc), for benches whose server, database and
// load generator share the cores: where the time of a request goes, per process kind.
import fs from 'node:fs';

/** The database server processes each SQL backend runs as (PostgreSQL forks one per connection). */
export const DATABASE_PROCESS: Readonly<Record<string, string>> = {
  postgres: 'postgres',
  mysql: 'mariadbd',
  mysql9: 'mysqld',
};

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** User plus system CPU of one process (ms), 0 once it is gone. */
export function cpuMsOf(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** CPU of every process whose command is `comm`, by pid (ms). */
export function cpuMsByCommand(comm: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (fs.readFileSync(`/proc/${d}/comm`, 'utf8').trim() === comm) out.set(Number(d), cpuMsOf(Number(d)));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/** CPU used by processes named `comm` between two readings (ms); processes born meanwhile count whole. */
export function cpuMsSince(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let ms = 0;
  for (const [pid, t] of after) ms += t - (before.get(pid) ?? 0);
  return ms;
}
