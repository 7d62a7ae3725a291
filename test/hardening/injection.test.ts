// SQL metacharacters and comment payloads in filters, ordering, bodies and path ids: PostgreSQL
// and MySQL answer exactly what the memory backend answers, and the data is left intact.
import { expect } from 'chai';
import { startServer, type TestServer } from '../support/server.js';
import { BACKENDS } from '../conformance/backends.js';

const PAYLOADS = ["'", "''", '"', '\\', "\\'", '%', '_', '%_%', "' OR '1'='1", "'; DROP TABLE dcim_site; --", '" OR ""="', '1; SELECT 1', '/*', '*/', '-- x', '#', '`', '$1', '?', ':name', "\u0000", 'ab%cd', 'a_b', "x' UNION SELECT id FROM users_token --"];
const FILTERS = ['name', 'name__ic', 'name__isw', 'name__iew', 'name__ie', 'name__nic', 'name__re', 'description__ire', 'slug__n', 'q', 'cf_note', 'cf_note__ic', 'region', 'tag', 'status__ic'];

async function seed(srv: TestServer): Promise<void> {
  await srv.req('POST', '/api/extras/custom-fields/', { name: 'note', type: 'text', content_types: ['dcim.site'] });
  await srv.req('POST', '/api/extras/tags/', { name: "O'Brien", slug: 'obrien' });
  const sites = PAYLOADS.filter((p) => p !== '\u0000').map((p, i) => ({ name: `s${i} ${p}`, slug: `s${i}`, description: p, custom_fields: { note: `n ${p}` }, tags: i % 2 ? ['obrien'] : [] }));
  const res = await srv.req('POST', '/api/dcim/sites/', sites);
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
}

async function answers(srv: TestServer): Promise<string[]> {
  const out: string[] = [];
  for (const f of FILTERS) for (const p of PAYLOADS) {
    const res = await srv.req('GET', `/api/dcim/sites/?${new URLSearchParams([[f, p], ['limit', '1000']])}`);
    out.push(`${f}=${JSON.stringify(p)} -> ${res.status} ${res.status === 200 ? res.body.results.map((s: { slug: string }) => s.slug).sort().join(',') : Object.keys(res.body).join(',')}`);
  }
  for (const p of PAYLOADS) {
    const res = await srv.req('GET', `/api/dcim/sites/?${new URLSearchParams([['ordering', p]])}`);
    out.push(`ordering=${JSON.stringify(p)} -> ${res.status}`);
    const byId = await srv.req('GET', `/api/dcim/sites/${encodeURIComponent(p)}/`);
    out.push(`id ${JSON.stringify(p)} -> ${byId.status}`);
  }
  out.push(`count ${(await srv.req('GET', '/api/dcim/sites/?limit=1')).body.count}`);
  return out;
}

describe('injection corpus: SQL backends answer like memory', function () {
  this.timeout(120000);
  let reference: string[] = [];
  before(async () => {
    const mem = await startServer();
    await seed(mem);
    reference = await answers(mem);
    await mem.close();
  });
  for (const backend of BACKENDS.filter((b) => b.name !== 'memory')) {
    it(`${backend.name}: every payload gives the memory answer and the data stays intact`, async function () {
      const db = await backend.url();
      if (!db) { console.log(`    (skipped: ${backend.name} not configured)`); this.skip(); }
      const srv = await startServer({ storage: db!.url });
      try {
        await seed(srv);
        const got = await answers(srv);
        for (let i = 0; i < reference.length; i++) expect(got[i]).to.equal(reference[i]);
      } finally { await srv.close(); await db!.drop(); }
    });
  }
});
