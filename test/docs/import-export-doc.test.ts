// docs/import-export.md stays true: each example request (an `http` block) runs, in order, on the demo data,
// and answers the block that follows it exactly, but where the doc shows "…" (an id, a time, a URL with
// the server's port). `{job}` in a path is the id of the job the last example answered; a GET of a job
// waits for its end first.
import { expect } from 'chai';
import fs from 'node:fs';
import { startServer, ADMIN_KEY, type TestServer } from '../support/server.js';
import { REPO_URL } from '../support/paths.js';
import { jobWhen } from '../support/jobs.js';

const doc = fs.readFileSync(new URL('docs/import-export.md', REPO_URL), 'utf8');
const EXAMPLE =
  /```http\n(GET|POST) (\S+)\n(?:Content-Type: (\S+)\n\n([\s\S]*?))?```\n+```(csv|yaml|json)\n([\s\S]*?)```/g;

/** `want` with each "…" replaced by what `got` holds there. */
function shown(want: unknown, got: unknown): unknown {
  if (want === '…') return got;
  if (Array.isArray(want)) return want.map((w, i) => shown(w, (got as unknown[] | null)?.[i]));
  if (want && typeof want === 'object')
    return Object.fromEntries(
      Object.entries(want).map(([k, w]) => [k, shown(w, (got as Record<string, unknown> | null)?.[k])]),
    );
  return want;
}

describe('docs/import-export.md', function () {
  this.timeout(60000);
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ demoData: true });
  });
  after(() => srv.close());

  const examples = [...doc.matchAll(EXAMPLE)];
  it('has examples', () => expect(examples.length).to.be.at.least(9));
  it('answers each example as shown', async () => {
    let job: { id: unknown; url: string } | undefined;
    for (const [, method, shownPath, type, body, kind, want] of examples) {
      const path = shownPath.replace('{job}', String(job?.id));
      if (path.startsWith('/api/core/jobs/')) await jobWhen(job!.url);
      const headers: Record<string, string> = { Authorization: `Token ${ADMIN_KEY}` };
      if (type) headers['Content-Type'] = type;
      const res = await fetch(srv.url + path, { method, headers, body: body || undefined });
      const text = await res.text();
      if (kind !== 'json') {
        expect(text.replace(/\r\n/g, '\n'), path).to.equal(want);
        continue;
      }
      const got: { id: unknown; url: string } = JSON.parse(text);
      expect(got, path).to.deep.equal(shown(JSON.parse(want), got));
      if (res.status === 202) job = got;
    }
  });
});
