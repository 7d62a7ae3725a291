// A pattern RE2 accepts but a database's regex engine refuses (PostgreSQL has no \p{…} classes and
// no flag group after the start) is a 400 saying so, never a 500.
import { expect } from 'chai';
import { TEST_DB_KINDS, testDatabaseOrSkip } from '../../storage/test-db.js';
import { startServer } from '../support/server.js';

for (const kind of TEST_DB_KINDS) describe(`patterns the ${kind} regex engine refuses`, function () {
  this.timeout(60000);
  it('answer 400 unsupported_pattern or run; never 500', async function () {
    const db = await testDatabaseOrSkip(kind);
    if ('skip' in db) { this.skip(); return; }
    const srv = await startServer({ storage: db.url });
    try {
      await srv.req('POST', '/api/dcim/sites/', { name: 'Ams', slug: 'ams' });
      for (const q of ['name__re=\\pL', 'name__ire=a(?i)MS', 'description__nre=\\pL']) {
        const res = await srv.req('GET', `/api/dcim/sites/?${q.replace(/\\/g, '%5C')}`);
        expect(res.status, `${q}: ${JSON.stringify(res.body)}`).to.be.oneOf([200, 400]);
        if (res.status === 400) expect(res.body, q).to.include({ code: 'unsupported_pattern' });
        if (kind === 'postgres' && q === 'name__re=\\pL') expect(res.status).to.equal(400);
      }
    } finally {
      await srv.close();
      await db.drop();
    }
  });
});
