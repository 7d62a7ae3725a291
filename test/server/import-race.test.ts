// Imports racing into one list, on every backend (foreground and background at once): each is all or
// nothing, every one acknowledged (200, or a job `completed`) has all its rows, one refused has none, and
// no natural key is held twice.
import { expect } from 'chai';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/backend-server.js';
import { jobWhen, postFile, sitesCsv } from '../support/jobs.js';
import type { TestServer } from '../support/server.js';

/** Whether an import was acknowledged: a 200, or a 202 whose job completed. */
async function acknowledged(srv: TestServer, background: boolean, csv: string): Promise<boolean> {
  const url = `${srv.url}/api/dcim/sites/${background ? '?background=true' : ''}`;
  const posted = await postFile(url, csv);
  if (!background) {
    expect(posted.status, JSON.stringify(posted.body)).to.be.oneOf([200, 400, 409]);
    return posted.status === 200;
  }
  expect(posted.status).to.equal(202);
  const job = await jobWhen(posted.body.url);
  expect(job.status.value).to.be.oneOf(['completed', 'failed']);
  return job.status.value === 'completed';
}

/** Sites whose slug starts with `prefix` (the whole list read a page at a time). */
async function slugs(srv: TestServer, prefix: string): Promise<string[]> {
  const out: string[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await srv.req('GET', `/api/dcim/sites/?slug__isw=${prefix}&limit=1000&offset=${offset}&brief=1`);
    out.push(...page.body.results.map((s: { slug: string }) => s.slug));
    if (!page.body.next) return out;
  }
}

for (const backend of BACKENDS)
  describe(`imports racing into one list (${backend.name})`, function () {
    this.timeout(300_000);
    const h = serverOn(backend);

    it('takes files with different rows at once: every row of each', async () => {
      const got = await Promise.all([
        acknowledged(h.srv, false, sitesCsv('da', 300)),
        acknowledged(h.srv, true, sitesCsv('db', 300)),
        acknowledged(h.srv, false, sitesCsv('dc', 300)),
        acknowledged(h.srv, true, sitesCsv('dd', 300)),
      ]);
      expect(got).to.deep.equal([true, true, true, true]);
      for (const p of ['da-', 'db-', 'dc-', 'dd-']) expect((await slugs(h.srv, p)).length, p).to.equal(300);
    });

    for (const [a, b] of [
      [false, false],
      [false, true],
      [true, true],
    ])
      it(`takes files sharing rows at once (${a ? 'background' : 'foreground'} and ${
        b ? 'background' : 'foreground'
      }): all or nothing each, no slug twice`, async () => {
        const tag = `s${Number(a)}${Number(b)}`;
        // 150 rows of their own each, and 50 (`<tag>-shared-*`) in both files.
        const shared = sitesCsv(`${tag}-shared`, 50).split('\n').slice(1).join('\n');
        const fileA = sitesCsv(`${tag}-a`, 150) + shared;
        const fileB = sitesCsv(`${tag}-b`, 150) + shared;
        const [okA, okB] = await Promise.all([acknowledged(h.srv, a, fileA), acknowledged(h.srv, b, fileB)]);
        const mineA = (await slugs(h.srv, `${tag}-a-`)).length;
        const mineB = (await slugs(h.srv, `${tag}-b-`)).length;
        expect(mineA, 'rows of the first file').to.equal(okA ? 150 : 0);
        expect(mineB, 'rows of the second file').to.equal(okB ? 150 : 0);
        expect(okA && okB, 'both cannot hold the shared rows').to.equal(false);
        expect(okA || okB, 'one of them is taken').to.equal(true);
        const sharedHeld = await slugs(h.srv, `${tag}-shared-`);
        expect(sharedHeld.length).to.equal(okA || okB ? 50 : 0);
        expect(new Set(sharedHeld).size).to.equal(sharedHeld.length);
      });
  });
