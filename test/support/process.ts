// The real entry point in a child process: what `npm start` runs, for tests that kill or restart it.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const MAIN = fileURLToPath(new URL('../../server/main.js', import.meta.url));

/**
 * Start `server/main.js` with a config file and storage; resolves once it listens. `nodeArgs`: flags for node (e.g.
 * --cpu-prof).
 */
export function startProcess(
  storage: string,
  configFile: string,
  env: Record<string, string> = {},
  nodeArgs: readonly string[] = [],
): Promise<{ child: ChildProcess; url: string; line: string; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, MAIN], {
      env: {
        ...process.env,
        PORT: '0',
        STORAGE_URL: storage,
        DEMO_DATA: 'false',
        CONFIG_FILE: configFile,
        LOG_LEVEL: 'silent',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '',
      err = '',
      listening = false;
    const output = () => out + err;
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (\S+).*/.exec(out);
      if (m && !listening) {
        listening = true;
        resolve({ child, url: m[1], line: m[0], output });
      }
    });
    child.stderr!.on('data', (d) => {
      err += d;
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
}
