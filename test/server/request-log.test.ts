// The request log is written asynchronously (server/observability.ts): no request waits for its
// line, and none is lost when the server stops. Lines logged right before a SIGTERM reach stdout.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { MAIN } from '../support/process.js';

describe('request log: written asynchronously, every line kept at a graceful shutdown', function () {
  this.timeout(30000);

  it('the lines of requests answered just before SIGTERM are all in the output', async () => {
    const child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        PORT: '0',
        STORAGE_URL: 'memory:',
        DEMO_DATA: 'false',
        LOG_LEVEL: 'info',
        CONFIG_FILE: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', () => {
        const m = /listening on (\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.on('exit', () => reject(new Error(`server exited: ${out}`)));
    });
    const ids = Array.from({ length: 300 }, (_, i) => `log-line-${i}`);
    // Many lines at once (they queue behind each other's writes), then the last one alone.
    await Promise.all(
      ids.slice(0, -1).map((id) => fetch(`${url}/health`, { headers: { 'X-Request-Id': id } }).then((r) => r.text())),
    );
    await (await fetch(`${url}/health`, { headers: { 'X-Request-Id': ids[ids.length - 1] } })).text();
    child.kill('SIGTERM');
    expect(await exited).to.equal(0);
    const logged = new Set(
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg: string; req_id: string })
        .filter((l) => l.msg === 'request')
        .map((l) => l.req_id),
    );
    expect(ids.filter((id) => !logged.has(id))).to.deep.equal([]);
  });
});
