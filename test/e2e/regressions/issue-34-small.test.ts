// Issue #34, finding 8 (all but the stream): refusals that one endpoint made differently from the
// rest, over real sockets on every backend. The token list filters as every list (an unknown filter,
// the hidden key_hash among them, is a 400; an ordering term naming no orderable field is dropped,
// never honoured); a bulk DELETE naming an object twice is the 400 a bulk PATCH gives; a `limit`
// below 1 on available-ips / available-prefixes is a 400 naming it. The regex classes are in
// test/e2e/conformance/regex-classes.test.ts.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import { BACKENDS } from '../conformance/backends.js';
import { serverOn } from '../../support/backend-server.js';

const MAX_PAGE = 20;

for (const backend of BACKENDS) {
  describe(`issue 34, smaller refusals, on ${backend.name}`, function () {
    this.timeout(60000);
    const h = serverOn(backend, { maxPageSize: MAX_PAGE });

    it('the token list: an unknown filter, key_hash included, is the 400 every list gives', async () => {
      for (const d of ['alpha', 'beta'])
        expect((await h.srv.req('POST', '/api/users/tokens/', { description: d })).status).to.equal(201);
      const sites = await h.srv.req('GET', '/api/dcim/sites/?bogus=zzz');
      expect(sites.status).to.equal(400);
      for (const param of ['key_hash', 'key_hash__ic', 'bogus', 'permissions']) {
        const res = await h.srv.req('GET', `/api/users/tokens/?${param}=zzz`);
        expect(res.status, `${param}: ${JSON.stringify(res.body)}`).to.equal(400);
        expect(res.body, param).to.deep.equal({ [param]: sites.body.bogus });
      }
    });

    it('the token list: known filters and orderings apply; key_hash is no ordering field', async () => {
      const all = (await h.srv.req('GET', '/api/users/tokens/?limit=0')).body;
      expect(all.count).to.be.greaterThan(2);
      const alpha = await h.srv.req('GET', '/api/users/tokens/?description=alpha');
      expect(alpha.status).to.equal(200);
      expect(alpha.body.results.map((t: { description: string }) => t.description)).to.deep.equal(['alpha']);
      const byDesc = (await h.srv.req('GET', '/api/users/tokens/?ordering=-description&limit=0')).body.results.map(
        (t: { description: string }) => t.description,
      );
      expect(byDesc).to.deep.equal([...byDesc].sort().reverse());
      // As on every list, a term naming no orderable field is dropped: the list's own order (oldest first).
      const own = all.results.map((t: { id: string }) => t.id);
      for (const q of ['ordering=-key_hash', 'ordering=key_hash', 'ordering=nope']) {
        const res = await h.srv.req('GET', `/api/users/tokens/?${q}&limit=0`);
        expect(res.status, q).to.equal(200);
        expect(
          res.body.results.map((t: { id: string }) => t.id),
          q,
        ).to.deep.equal(own);
      }
      expect(own.length).to.equal(all.count);
    });

    it('a bulk DELETE naming an object twice is the 400 a bulk PATCH gives, and deletes nothing', async () => {
      const a = (await h.srv.req('POST', '/api/dcim/sites/', { name: 'dup-a', slug: 'dup-a' })).body.id;
      const b = (await h.srv.req('POST', '/api/dcim/sites/', { name: 'dup-b', slug: 'dup-b' })).body.id;
      const twice = [{ id: a }, { id: b }, { id: a.toUpperCase() }];
      const patch = await h.srv.req(
        'PATCH',
        '/api/dcim/sites/',
        twice.map((x) => ({ ...x, description: 'x' })),
      );
      expect(patch.status).to.equal(400);
      const del = await h.srv.req('DELETE', '/api/dcim/sites/', twice);
      expect(del.status, JSON.stringify(del.body)).to.equal(400);
      expect(del.body).to.deep.equal(patch.body);
      expect((await h.srv.req('GET', '/api/dcim/sites/?slug=dup-a&slug=dup-b')).body.count).to.equal(2);
      expect((await h.srv.req('DELETE', '/api/dcim/sites/', [{ id: a }, { id: b }])).status).to.equal(204);
    });

    it(
      'available-ips and available-prefixes: a limit below 1 is a 400 naming limit; above the page size it is ' +
        'clamped',
      async () => {
        const id = (await h.srv.req('POST', '/api/ipam/prefixes/', { prefix: '10.34.0.0/16' })).body.id;
        for (const path of ['available-ips', 'available-prefixes']) {
          for (const limit of ['0', '-1', '-50', '+0']) {
            const res = await h.srv.req('GET', `/api/ipam/prefixes/${id}/${path}/?limit=${encodeURIComponent(limit)}`);
            expect(res.status, `${path} limit=${limit}: ${JSON.stringify(res.body)}`).to.equal(400);
            expect(Object.keys(res.body), `${path} limit=${limit}`).to.deep.equal(['limit']);
            expect(res.body.limit).to.be.an('array').that.is.not.empty;
          }
          expect((await h.srv.req('GET', `/api/ipam/prefixes/${id}/${path}/?limit=1`)).body).to.have.length(1);
        }
        const many = await h.srv.req('GET', `/api/ipam/prefixes/${id}/available-ips/?limit=${MAX_PAGE + 5}`);
        expect(many.status).to.equal(200);
        expect(many.body).to.have.length(MAX_PAGE);
      },
    );
  });
}
