// docs/graphql.md stays true: every ```graphql example runs on the demo data without an error, and every
// root field it asks answers something (an object, or a list that is not empty). `"{site:ams-core-01}"`
// stands for that site's id (test/support/doc-ids.ts); a first line `# variables: {...}` gives the variables.
import { expect } from 'chai';
import fs from 'node:fs';
import { startServer, type TestServer } from '../support/server.js';
import { withIds } from '../support/doc-ids.js';
import { REPO_URL } from '../support/paths.js';

const doc = fs.readFileSync(new URL('docs/graphql.md', REPO_URL), 'utf8');
export const GRAPHQL_EXAMPLES = [...doc.matchAll(/^```graphql\n([\s\S]*?)^```/gm)].map((m) => m[1]);

/** The example with each quoted `{resource:ref}` replaced by the object's id. */
async function withObjectIds(srv: TestServer, text: string): Promise<string> {
  let out = text;
  for (const [quoted] of text.matchAll(/"\{\w+:[^}"]+\}"/g)) out = out.replace(quoted, await withIds(srv, quoted));
  return out;
}

describe('docs/graphql.md', function () {
  this.timeout(60000);
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ demoData: true });
  });
  after(() => srv.close());

  it('has examples in both dialects', () => {
    expect(GRAPHQL_EXAMPLES.length).to.be.greaterThan(8);
    expect(GRAPHQL_EXAMPLES.some((q) => /\bsites\(/.test(q))).to.equal(true);
    expect(GRAPHQL_EXAMPLES.some((q) => /\bsite_list\(/.test(q))).to.equal(true);
  });

  GRAPHQL_EXAMPLES.forEach((example, i) => {
    it(`example ${i + 1}: ${example.replace(/\s+/g, ' ').slice(0, 80)}`, async () => {
      const query = await withObjectIds(srv, example);
      const vars = /^# variables: (.*)$/m.exec(query)?.[1];
      for (const path of ['/graphql/', '/api/graphql/']) {
        const res = await srv.req('POST', path, { query, variables: vars ? JSON.parse(vars) : null });
        expect(res.status).to.equal(200);
        expect(res.body.errors, JSON.stringify(res.body.errors)).to.equal(undefined);
        for (const [field, value] of Object.entries(res.body.data)) {
          expect(value, field).to.not.equal(null);
          if (Array.isArray(value)) expect(value, field).to.not.be.empty;
        }
      }
    });
  });
});
