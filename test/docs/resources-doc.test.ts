// docs/resources.md stays true: every example request (method, path, body) gets the status it
// documents on the demo data, and a documented body is the body answered.
import { expect } from 'chai';
import fs from 'node:fs';
import { startServer, type TestServer } from '../support/server.js';
import { withIds } from '../support/doc-ids.js';
import { REPO_URL } from '../support/paths.js';

const doc = fs.readFileSync(new URL('docs/resources.md', REPO_URL), 'utf8');
const examples = [
  ...doc.matchAll(/^- `(GET|POST|PUT|PATCH|DELETE) (\S+)`(?: with `(.+?)`)? → (\d{3})(?: `(\{.*\})`)?/gm),
];

describe('docs/resources.md examples', function () {
  this.timeout(60000);
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ demoData: true });
  });
  after(() => srv.close());

  it('has examples', () => expect(examples.length).to.be.greaterThan(10));
  for (const [, method, path, body, status, answer] of examples) {
    it(`${method} ${path}${body ? ` ${body}` : ''} -> ${status}`, async () => {
      const res = await srv.req(
        method,
        await withIds(srv, path),
        body === undefined ? undefined : JSON.parse(await withIds(srv, body)),
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(Number(status));
      if (answer) expect(res.body).to.deep.equal(JSON.parse(answer));
    });
  }
});
