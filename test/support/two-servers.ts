// For race tests: a backend's servers for a describe block. SQL: two server processes on one fresh
// database (what two processes racing on one row is); memory: one in-process server, which owns
// its store. `urls` holds their base URLs once before() ran; the block is skipped where the backend
// is not configured. Every server has the token `key` with every permission.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Backend } from '../e2e/conformance/backends.js';
import { startProcess } from './process.js';
import { startServer, type TestServer } from './server.js';

export function racingServers(backend: Backend, key: string): { urls: string[] } {
  const held = { urls: [] as string[] };
  let db: { url: string; drop(): Promise<void> } | null = null;
  const procs: ChildProcess[] = [];
  let inProcess: TestServer | null = null;
  before(async function () {
    db = await backend.url();
    if (!db) {
      this.skip();
      return;
    }
    if (backend.driver === 'memory') {
      inProcess = await startServer({ storage: db.url, tokens: [{ key, permissions: ['*'] }] });
      held.urls = [inProcess.url];
      return;
    }
    const cfg = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-race-')), 'config.json');
    fs.writeFileSync(cfg, JSON.stringify({ tokens: [{ key, permissions: ['*'] }] }));
    const [p, q] = [await startProcess(db.url, cfg), await startProcess(db.url, cfg)];
    procs.push(p.child, q.child);
    held.urls = [p.url, q.url];
  });
  after(async () => {
    for (const c of procs) c.kill('SIGTERM');
    await inProcess?.close();
    await new Promise((r) => setTimeout(r, 300));
    await db?.drop();
  });
  return held;
}
