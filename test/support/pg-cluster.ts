// A PostgreSQL primary and a hot standby of its own, made for one test: `initdb` on a free port,
// `pg_basebackup -R` into a second folder started on another port (streaming replication). Run as
// the postgres user when the tests run as root (PostgreSQL refuses root). null when this machine
// has no PostgreSQL server binaries.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const BIN_ROOT = '/usr/lib/postgresql';

function binDir(): string | null {
  if (!fs.existsSync(BIN_ROOT)) return null;
  const versions = fs
    .readdirSync(BIN_ROOT)
    .filter((v) => fs.existsSync(path.join(BIN_ROOT, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(BIN_ROOT, versions[0], 'bin') : null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface PgPair {
  readonly primaryUrl: string;
  readonly standbyUrl: string;
  /** Stops and starts the primary (fast shutdown: sessions are cut), waiting until it accepts connections. */
  restartPrimary(): Promise<void>;
  /** Stops / starts WAL replay on the standby (a standby that falls behind). */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Waits until the standby has replayed everything the primary has written. */
  caughtUp(): Promise<void>;
  query(url: string, sql: string): Promise<pg.QueryResult>;
  stop(): void;
}

export async function startPgPair(database = 'netinv'): Promise<PgPair | null> {
  const bin = binDir();
  if (!bin) return null;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-pgpair-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', root]);
  fs.chmodSync(root, 0o755);
  const run = (tool: string, args: string[]) => {
    const cmd = path.join(bin, tool);
    return asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { cwd: '/', stdio: 'pipe' })
      : execFileSync(cmd, args, { cwd: '/', stdio: 'pipe' });
  };
  const [p1, p2] = [await freePort(), await freePort()];
  const primary = path.join(root, 'primary'),
    standby = path.join(root, 'standby');
  const start = (dir: string, port: number) =>
    run('pg_ctl', [
      '-D',
      dir,
      '-w',
      '-t',
      '60',
      '-l',
      `${dir}.log`,
      '-o',
      `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
  run('initdb', ['-D', primary, '--no-sync', '--auth=trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C.UTF-8']);
  start(primary, p1);
  const admin = `postgres://postgres@127.0.0.1:${p1}/postgres`;
  const query = async (url: string, sql: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      return await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await query(admin, `CREATE DATABASE ${database}`);
  run('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(p1),
    '-U',
    'postgres',
    '-D',
    standby,
    '-R',
    '-X',
    'stream',
    '--no-sync',
  ]);
  start(standby, p2);
  const primaryUrl = `postgres://postgres@127.0.0.1:${p1}/${database}`;
  const standbyUrl = `postgres://postgres@127.0.0.1:${p2}/${database}`;
  for (
    let i = 0;
    (await query(standbyUrl, 'SELECT pg_is_in_recovery() AS r').catch(() => null))?.rows[0]?.r !== true;
    i++
  ) {
    if (i > 100) throw new Error('the standby did not come up in recovery');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    primaryUrl,
    standbyUrl,
    query,
    restartPrimary: async () => {
      const cmd = [
        path.join(bin, 'pg_ctl'),
        '-D',
        primary,
        '-m',
        'fast',
        '-w',
        '-t',
        '60',
        '-l',
        `${primary}.log`,
        '-o',
        `-p ${p1} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off`,
        'restart',
      ];
      await (asRoot
        ? promisify(execFile)('runuser', ['-u', 'postgres', '--', ...cmd], { cwd: '/' })
        : promisify(execFile)(cmd[0], cmd.slice(1), { cwd: '/' }));
    },
    pauseReplay: async () => {
      await query(standbyUrl, 'SELECT pg_wal_replay_pause()');
    },
    resumeReplay: async () => {
      await query(standbyUrl, 'SELECT pg_wal_replay_resume()');
    },
    caughtUp: async () => {
      const want = (await query(primaryUrl, 'SELECT pg_current_wal_lsn()::text AS l')).rows[0].l;
      for (let i = 0; i < 300; i++) {
        const got = await query(standbyUrl, `SELECT pg_last_wal_replay_lsn() >= '${want}'::pg_lsn AS ok`);
        if (got.rows[0].ok) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('the standby did not catch up');
    },
    stop: () => {
      for (const dir of [standby, primary]) {
        try {
          run('pg_ctl', ['-D', dir, '-m', 'immediate', '-w', 'stop']);
        } catch {
          /* already down */
        }
      }
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
