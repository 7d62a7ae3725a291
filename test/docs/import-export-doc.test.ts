// docs/import-export.md stays true: each example request (an `http` block) runs, in order, on the demo data,
// and answers the block that follows it exactly.
import { expect } from 'chai';
import fs from 'node:fs';
import { startServer, ADMIN_KEY, type TestServer } from '../support/server.js';
import { REPO_URL } from '../support/paths.js';

const doc = fs.readFileSync(new URL('docs/import-export.md', REPO_URL), 'utf8');
const EXAMPLE =
  /```http\n(GET|POST) (\S+)\n(?:Content-Type: (\S+)\n\n([\s\S]*?))?```\n+```(csv|yaml|json)\n([\s\S]*?)```/g;

describe('docs/import-export.md', function () {
  this.timeout(60000);
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ demoData: true });
  });
  after(() => srv.close());

  const examples = [...doc.matchAll(EXAMPLE)];
  it('has examples', () => expect(examples.length).to.be.at.least(5));
  it('answers each example as shown', async () => {
    for (const [, method, path, type, body, kind, want] of examples) {
      const headers: Record<string, string> = { Authorization: `Token ${ADMIN_KEY}` };
      if (type) headers['Content-Type'] = type;
      const res = await fetch(srv.url + path, { method, headers, body: body || undefined });
      const text = await res.text();
      if (kind === 'json') expect(JSON.parse(text), path).to.deep.equal(JSON.parse(want));
      else expect(text.replace(/\r\n/g, '\n'), path).to.equal(want);
    }
  });
});
