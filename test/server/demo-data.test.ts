// DEMO_DATA on a store that persists (memory:/dir, PostgreSQL, MySQL): the demo dataset is loaded
// at the first start; a later start with it still set starts normally, loads nothing, and says so
// in its start line. Two processes starting at once on a fresh database load it once.
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { startProcess } from '../support/process.js';

const KEY = 'demo-key-0123456789';
const DEMO_SITES = 30;

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

const sites = async (url: string): Promise<number> =>
  (await (await fetch(`${url}/api/dcim/sites/?limit=1`, { headers: { Authorization: `Token ${KEY}` } })).json()).count;

describe('DEMO_DATA on a persisted store: loaded once', function () {
  this.timeout(120000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-demo-'));
  const cfg = path.join(dir, 'config.json');
  fs.writeFileSync(cfg, JSON.stringify({ tokens: [{ key: KEY, permissions: ['*'] }] }));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const stores: { name: string; url(): Promise<{ url: string; drop(): Promise<void> } | null> }[] = [
    { name: 'memory:/dir', url: async () => ({ url: `memory:${path.join(dir, 'store')}`, drop: async () => {} }) },
    ...BACKENDS.filter((b) => b.name !== 'memory'),
  ];
  for (const store of stores) {
    it(
      `${store.name}: the second start with DEMO_DATA=true starts, ` + 'loads nothing and says so in one line',
      async function () {
        const db = await store.url();
        if (!db) {
          this.skip();
          return;
        }
        try {
          const first = await startProcess(db.url, cfg, { DEMO_DATA: 'true' });
          try {
            expect(first.line).to.match(/, demo data loaded\)$/);
            expect(await sites(first.url)).to.equal(DEMO_SITES);
          } finally {
            await stop(first.child);
          }
          const second = await startProcess(db.url, cfg, { DEMO_DATA: 'true' });
          try {
            expect(second.line).to.contain('DEMO_DATA is set but the store holds inventory already');
            expect(second.line).to.contain('not loaded again');
            expect(await sites(second.url)).to.equal(DEMO_SITES);
          } finally {
            await stop(second.child);
          }
        } finally {
          await db.drop();
        }
      },
    );
  }

  for (const backend of BACKENDS.filter((b) => b.driver === 'postgres')) {
    it(
      `${backend.name}: two processes starting at once with DEMO_DATA=true on a fresh database both start; ` +
        `the data is loaded once`,
      async function () {
        const db = await backend.url();
        if (!db) {
          this.skip();
          return;
        }
        const started = await Promise.allSettled([
          startProcess(db.url, cfg, { DEMO_DATA: 'true' }),
          startProcess(db.url, cfg, { DEMO_DATA: 'true' }),
        ]);
        try {
          expect(started.map((s) => s.status)).to.deep.equal(['fulfilled', 'fulfilled']);
          const [a, b] = started.map((s) => (s as PromiseFulfilledResult<{ url: string; line: string }>).value);
          expect([a.line, b.line].filter((l) => l.endsWith(', demo data loaded)'))).to.have.length(1);
          expect(await sites(b.url)).to.equal(DEMO_SITES);
        } finally {
          for (const s of started) if (s.status === 'fulfilled') await stop(s.value.child);
          await db.drop();
        }
      },
    );
  }
});
