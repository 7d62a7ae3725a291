// docs/changes.md stays true: every curl line with an expected status (`# → NNN`) is run, in order,
// against a server with the demo data, and answers that status.
import { expect } from 'chai';
import fs from 'node:fs';
import { startServer, type TestServer } from '../support/server.js';
import { REPO_URL } from '../support/paths.js';

const doc = fs.readFileSync(new URL('docs/changes.md', REPO_URL), 'utf8');

/** A documented curl line: method, path (with query), headers and body. */
export function parseCurl(
  line: string,
): { method: string; path: string; headers: Record<string, string>; body?: string; status: number } | null {
  const m = /^curl (.*?)\s+# → (\d{3})\s*$/.exec(line.trim());
  if (!m) return null;
  const words = [...m[1].matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((w) => w[1] ?? w[2] ?? w[3]);
  let method = 'GET',
    path = '',
    body: string | undefined;
  const headers: Record<string, string> = {};
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === '-X') method = words[++i];
    else if (w === '-H') {
      const [k, ...v] = words[++i].split(':');
      headers[k.trim()] = v.join(':').trim();
    } else if (w === '-d') body = words[++i];
    else if (w.startsWith('http')) path = w.replace(/^https?:\/\/[^/]+/, '');
  }
  return { method, path, headers, body, status: Number(m[2]) };
}

const examples = doc
  .split('\n')
  .map(parseCurl)
  .filter((e): e is NonNullable<ReturnType<typeof parseCurl>> => e !== null);

describe('docs/changes.md examples', function () {
  this.timeout(60000);
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ demoData: true });
  });
  after(() => srv.close());

  it('has examples', () => expect(examples.length).to.be.greaterThan(4));
  for (const e of examples) {
    it(`${e.method} ${e.path} -> ${e.status}`, async () => {
      const { Authorization: _, ...headers } = e.headers;
      const res = await srv.req(
        e.method,
        e.path,
        e.body === undefined ? undefined : JSON.parse(e.body),
        undefined,
        headers,
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(e.status);
      if (e.path.startsWith('/api/extras/object-changes/?') && e.method === 'GET' && e.status === 200)
        expect(res.body.results.length, 'records found').to.be.greaterThan(0); // a list: a stream's body is not read
    });
  }
});
