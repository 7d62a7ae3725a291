// A resource is one file: a fixture registry (test/fixtures/registry) adds circuits from circuit.ts
// alone, and a server started on it serves their REST list and filters, a count on sites, OpenAPI
// paths and the UI's listing; on each SQL backend its migration makes the table and the same holds.
// The registry is read once per process, so the fixture runs in a child process of its own.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const RUN = fileURLToPath(new URL('../fixtures/registry/run.js', import.meta.url));

function runFixture(): Promise<Record<string, Record<string, unknown> | null>> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--enable-source-maps', RUN], { maxBuffer: 1 << 24 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').at(-1)!));
    });
  });
}

describe('a new resource from a single file (fixture registry)', function () {
  this.timeout(180000);
  let results: Record<string, Record<string, unknown> | null>;
  before(async () => {
    results = await runFixture();
  });

  for (const backend of ['memory', 'postgres', 'mysql', 'mysql9']) {
    const table = backend === 'memory' ? '' : ', table';
    it(`is served on ${backend}: list, filters, count on sites, OpenAPI, UI listing${table}`, function () {
      const r = results[backend];
      if (!r) this.skip();
      expect(r.created).to.equal(201);
      expect(r.list).to.have.members(['C-1', 'C-2']);
      expect(r.bySite).to.deep.equal(['C-1']);
      expect(r.byStatus).to.deep.equal(['C-2']);
      expect(r.byRate).to.deep.equal(['C-1']);
      expect(r.search).to.deep.equal(['C-2']);
      expect(r.siteCount).to.equal(1);
      expect(r.openapi).to.include.members(['/api/circuits/circuits/', '/api/circuits/circuits/{id}/']);
      expect(r.ui).to.deep.equal({ label: 'Circuit', app: 'circuits', plural: 'circuits' });
      if (backend !== 'memory')
        expect(r.columns).to.include.members(['id', 'cid', 'site', 'status', 'commit_rate', 'description', 'version']);
    });
  }
});
