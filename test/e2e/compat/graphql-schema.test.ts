// A third party checks the GraphQL schema: Debian's python3-graphql-core (graphql_schema_check.py) reads the
// server's schema with its own introspection query, builds a client schema from the answer and validates
// every example of docs/graphql.md against it, at both paths. It must also refuse what is not in the schema.
import { expect } from 'chai';
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ADMIN_KEY, startServer, type TestServer } from '../../support/server.js';
import { repoPath } from '../../support/paths.js';

// Debian's package lands in the system interpreter, which may not be the first python3 on PATH.
const python = ['/usr/bin/python3', 'python3'].find(
  (p) => spawnSync(p, ['-c', 'from graphql import build_client_schema'], { encoding: 'utf8' }).status === 0,
);

/** Runs the check; asynchronous, as the server answering it runs in this very process. */
async function check(srv: TestServer, doc: string, at: string): Promise<{ code: number; out: string }> {
  const args = [repoPath('test/e2e/compat/graphql_schema_check.py'), srv.url, ADMIN_KEY, doc, at];
  const r = await promisify(execFile)(python!, args, { encoding: 'utf8', timeout: 50000 }).catch((e) => e);
  return { code: typeof r.code === 'number' ? r.code : 0, out: String(r.stderr) + String(r.stdout) };
}

describe('GraphQL schema checked by python3-graphql-core', function () {
  this.timeout(60000);
  let srv: TestServer;
  before(async function () {
    if (!python) {
      if (process.env.CI) throw new Error('python3-graphql-core is not installed (.ci/run installs it)');
      console.log('    (skipped: python3-graphql-core not installed)');
      this.skip();
    }
    srv = await startServer({ demoData: true });
  });
  after(async () => {
    await srv?.close();
  });

  for (const at of ['/graphql/', '/api/graphql/'])
    it(`validates every example of docs/graphql.md against the schema introspected at ${at}`, async () => {
      const r = await check(srv, repoPath('docs/graphql.md'), at);
      expect(r.out).to.match(/^OK \d+ examples/m);
      expect(r.code).to.equal(0);
    });

  it('refuses a query the schema does not allow, naming the field', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphql-check-'));
    const doc = path.join(dir, 'bad.md');
    fs.writeFileSync(doc, '```graphql\n{ sites { name no_such_field } }\n```\n');
    const r = await check(srv, doc, '/graphql/');
    fs.rmSync(dir, { recursive: true, force: true });
    expect(r.code).to.equal(1);
    expect(r.out).to.contain('no_such_field');
  });
});
