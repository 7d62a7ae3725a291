// A bench server (bench/http-server.ts) in a process of its own: resolves once it prints READY.
import { spawn, type ChildProcess } from 'node:child_process';

export interface BenchServer {
  readonly child: ChildProcess;
  readonly url: string;
  readonly key: string;
  output(): string;
}

/** `env` adds to the process's: STORAGE_URL, BENCH_PREFIXES, READ_REPLICA, BENCH_LOAD (see http-server.ts). */
/** `nodeArgs`: more flags for node (e.g. --cpu-prof, which NODE_OPTIONS refuses). */
export function startBenchServer(env: Record<string, string>, nodeArgs: readonly string[] = []): Promise<BenchServer> {
  return startBenchProcess('./http-server.js', env, nodeArgs);
}

/** A bench script (relative to bench/) that prints READY <url> <key>, run as the server runs. */
export function startBenchProcess(
  script: string,
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): Promise<BenchServer> {
  // The flag npm start uses: a larger young generation, fewer collections under load.
  // BENCH_SERVER_NODE_FLAGS: more flags for every bench's servers (`--cpu-prof --cpu-prof-dir=/tmp/p`: Node refuses
  // those in NODE_OPTIONS).
  const extra = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    ['--max-semi-space-size=64', ...extra, ...nodeArgs, new URL(script, import.meta.url).pathname],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let out = '',
      err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      process.stderr.write(d);
    });
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /READY (\S+) (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1], key: m[2], output: () => out + err });
    });
    child.on('exit', (code) => reject(new Error(`bench server exited with ${code}: ${err.slice(-500)}`)));
  });
}

/** Stops a bench server and waits for it to go. */
export function stopBenchServer(s: BenchServer): Promise<void> {
  return new Promise((res) => {
    if (s.child.exitCode !== null) {
      res();
      return;
    }
    s.child.once('exit', () => res());
    s.child.kill('SIGTERM');
  });
}
