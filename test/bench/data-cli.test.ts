// `npm run bench:data` end to end: a child process generates and loads a dataset into memory:/dir;
// the stored data is what the generator promises, the same seed gives the same rows, bad options exit 2.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { MemoryStorage } from '../../storage/memory/memory-storage.js';
import { createStorage } from '../../storage/open-storage.js';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { distPath } from '../support/paths.js';

const CLI = distPath('bench/data-cli.js');
const run = promisify(execFile);

async function generate(dir: string, ...extra: string[]): Promise<MemoryStorage> {
  await run(process.execPath, [CLI, '--prefixes', '3000', '--seed', '7', '--storage', `memory:${dir}`, ...extra]);
  const m = new MemoryStorage(dir);
  await m.open();
  return m;
}

describe('bench:data', function () {
  this.timeout(60000);
  const dirs: string[] = [];
  const tmp = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-data-'));
    dirs.push(d);
    return d;
  };
  after(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  const title =
    'loads distinct uniform prefixes, one sixth IPv6, with sites, devices, interfaces and tags in proportion';
  it(title, async () => {
    const m = await generate(tmp());
    const prefixes = [...m.table('prefix').all()];
    expect(prefixes).to.have.length(3000);
    expect(new Set(prefixes.map((p) => p.prefix)).size).to.equal(3000);
    expect(prefixes.filter((p) => String(p.prefix).includes(':'))).to.have.length(500);
    expect([...m.table('site').all()]).to.have.length(10);
    expect([...m.table('device').all()]).to.have.length(40);
    expect([...m.table('interface').all()]).to.have.length(400);
    expect([...m.table('tag').all()]).to.have.length(8);
    await m.close();
  });

  it('is deterministic: the same seed gives the same rows', async () => {
    const a = await generate(tmp(), '--shape', 'ipam');
    const b = await generate(tmp(), '--shape', 'ipam');
    const texts = (m: MemoryStorage) =>
      [...m.table('prefix').all()].map((p) => `${p.id} ${p.prefix} ${p.status} ${JSON.stringify(p.custom_fields)}`);
    expect(texts(a)).to.deep.equal(texts(b));
    // The IPAM shape nests: /24s inside their /16 aggregate.
    expect(texts(a).some((t) => t.includes('/16 '))).to.equal(true);
    await a.close();
    await b.close();
  });

  for (const backend of BACKENDS.filter((b) => b.name !== 'memory')) {
    it(`loads into ${backend.name} and refreshes its statistics`, async function () {
      const db = await backend.url();
      if (!db) {
        this.skip();
        return;
      }
      try {
        await run(process.execPath, [CLI, '--prefixes', '2000', '--seed', '7', '--storage', db.url]);
        const s = await createStorage(db.url);
        await s.open();
        const all = await s.find('prefix', { kind: 'const', value: true }, { limit: 1, offset: 0, ordering: [] });
        expect(all.count).to.equal(2000);
        await s.close();
      } finally {
        await db.drop();
      }
    });
  }

  it('refuses bad options with exit code 2 and a line naming them', async () => {
    const err = await run(process.execPath, [CLI, '--prefixes', '-5', '--shape', 'round']).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(err?.code).to.equal(2);
    expect(err?.stderr).to.contain('--prefixes').and.to.contain('--shape');
  });
});
