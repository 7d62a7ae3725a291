// A pattern RE2 accepts but a database's regex engine refuses (PostgreSQL has no flag group after
// the start and no \x{…}) is a 400 saying so, never a 500. What each engine answers is pinned
// (docs/storage.md, "Known differences"): MariaDB (PCRE2) and MySQL (ICU) run them all, with the
// same matches. Unicode classes (\pL, \p{L}, \PN) are written out for every database and run
// everywhere (test/e2e/conformance/regex-classes.test.ts).
import { expect } from 'chai';
import { TEST_DB_KINDS, testDatabaseOrSkip } from '../../../storage/test-db.js';
import { startServer } from '../../support/server.js';

for (const kind of TEST_DB_KINDS)
  describe(`patterns the ${kind} regex engine refuses`, function () {
    this.timeout(60000);
    it('answer 400 unsupported_pattern or run; never 500', async function () {
      const db = await testDatabaseOrSkip(kind);
      if ('skip' in db) {
        this.skip();
        return;
      }
      const srv = await startServer({ storage: db.url });
      try {
        await srv.req('POST', '/api/dcim/sites/', { name: 'Ams', slug: 'ams' });
        await srv.req('POST', '/api/dcim/sites/', { name: 'émile', slug: 'em' });
        // query -> count of matches where the engine runs it; 400: refused (unsupported_pattern).
        const cases: [string, number][] = [
          ['name__re=\\pL', 2],
          ['name__re=\\p{L}', 2],
          ['name__re=\\PN', 2],
          ['name__ire=a(?i)MS', 1],
          ['description__nre=\\pL', 2],
          ['name__re=^\\x{e9}', 1],
        ];
        const refused = kind === 'postgres' ? new Set(['name__ire=a(?i)MS', 'name__re=^\\x{e9}']) : new Set<string>();
        for (const [q, count] of cases) {
          const res = await srv.req('GET', `/api/dcim/sites/?${q.replace(/\\/g, '%5C')}`);
          if (refused.has(q)) {
            expect(res.status, `${q}: ${JSON.stringify(res.body)}`).to.equal(400);
            expect(res.body, q).to.include({ code: 'unsupported_pattern' });
          } else {
            expect(res.status, `${q}: ${JSON.stringify(res.body)}`).to.equal(200);
            expect(res.body.count, q).to.equal(count);
          }
        }
        // A pattern an engine gives up on (MariaDB's backtracking limit, MySQL's regex time limit) is
        // a 400 there, never a short answer: the right count or a refusal.
        const site = await srv.req('GET', '/api/dcim/sites/?slug=ams');
        for (const [name, comments] of [
          ['d1', 'b' + 'a'.repeat(1999)],
          ['d2', 'a'.repeat(1999) + 'b'],
        ])
          expect(
            (await srv.req('POST', '/api/dcim/devices/', { name, site: site.body.results[0].id, comments })).status,
          ).to.equal(201);
        const res = await srv.req('GET', '/api/dcim/devices/?comments__re=(a|a)*$');
        if (res.status === 200) expect(res.body.count, 'every row matches (the empty match at the end)').to.equal(2);
        else expect(res.body, JSON.stringify(res.body)).to.include({ code: 'unsupported_pattern' });
        if (kind === 'mysql') expect(res.status, 'MariaDB gives up on these rows').to.equal(400);
      } finally {
        await srv.close();
        await db.drop();
      }
    });
  });
