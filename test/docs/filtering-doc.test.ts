// docs/filtering.md stays true: every example query returns the documented count (or a 400) on the
// demo dataset. (Its lookup reference is generated: test/docs/generated-docs.test.ts.)
import { expect } from 'chai';
import fs from 'node:fs';
import { startServer, type TestServer } from '../support/server.js';
import { withIds } from '../support/doc-ids.js';
import { REPO_URL } from '../support/paths.js';

const doc = fs.readFileSync(new URL('docs/filtering.md', REPO_URL), 'utf8');

describe('docs/filtering.md', function () {
  this.timeout(60000);
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ demoData: true });
  });
  after(() => srv.close());

  const examples = [...doc.matchAll(/^- `GET (\S+)` → (\d+|400)/gm)];
  it('has examples', () => expect(examples.length).to.be.greaterThan(40));
  for (const [, path, want] of examples) {
    it(`${path} -> ${want}`, async () => {
      const [base, query = ''] = (await withIds(srv, path)).split('?');
      const params = new URLSearchParams(query);
      const res = await srv.req('GET', `${base}?${params}`);
      if (want === '400') {
        expect(res.status).to.equal(400);
        for (const k of Object.keys(res.body)) expect(query).to.include(k);
      } else {
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.count).to.equal(Number(want));
        expect(res.body.count).to.be.greaterThan(0);
      }
    });
  }
});
