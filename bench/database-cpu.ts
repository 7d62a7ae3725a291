// The CPU a database spent serving one database's connections (Linux /proc), for benches on a
// machine shared with other work: counting every `postgres` / `mariadbd` process would count the
// other databases' load too. PostgreSQL serves each connection in a process of its own
// (pg_stat_activity.pid); MariaDB in a thread of its own (information_schema.processlist.TID),
// MySQL likewise (performance_schema.threads.THREAD_OS_ID). Work the server does for no
// connection (WAL writer, checkpoints, purge) is not in it.
import fs from 'node:fs';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { cpuMsOf } from './process-cpu.js';

const TICK_MS = 10; // USER_HZ

/** User plus system CPU of one thread of `pid` (ms), 0 once it is gone. */
function threadCpuMs(pid: number, tid: number): number {
  try {
    const f = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** The process listening as the MySQL server: the one whose threads the TIDs name. */
function mysqlServerPid(tid: number): number | null {
  for (const d of fs.readdirSync('/proc'))
    if (/^\d+$/.test(d) && fs.existsSync(`/proc/${d}/task/${tid}`)) return Number(d);
  return null;
}

/**
 * A reader of the CPU (ms) each connection to the database at `url` has used so far, keyed by
 * process or thread id; a connection opened between two readings counts whole (cpuMsSince).
 */
export async function connectionCpu(
  kind: 'postgres' | 'mysql',
  url: string,
): Promise<{ read(): Promise<Map<number, number>>; close(): Promise<void> }> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (kind === 'postgres') {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    return {
      async read() {
        const { rows } = await c.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [name]);
        return new Map(rows.map((r: { pid: number }) => [r.pid, cpuMsOf(r.pid)]));
      },
      close: () => c.end(),
    };
  }
  const c = await mysql.createConnection({ uri: url });
  const tids = async (): Promise<number[]> => {
    try {
      // MariaDB
      const [rows] = await c.query('SELECT TID AS tid FROM information_schema.PROCESSLIST WHERE DB = ?', [name]);
      return (rows as { tid: number }[]).map((r) => Number(r.tid));
    } catch {
      const [rows] = await c.query(
        'SELECT THREAD_OS_ID AS tid FROM performance_schema.threads WHERE PROCESSLIST_DB = ?',
        [name],
      ); // MySQL
      return (rows as { tid: number }[]).map((r) => Number(r.tid));
    }
  };
  let server: number | null = null;
  return {
    async read() {
      const ids = await tids();
      server ??= ids.length ? mysqlServerPid(ids[0]) : null;
      return new Map(server === null ? [] : ids.map((t) => [t, threadCpuMs(server!, t)]));
    },
    close: () => c.end(),
  };
}
