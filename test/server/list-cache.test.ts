// List pages kept as sent (memory) and list entity tags (every backend): a page read again after a
// write shows the write, nested objects included; a list answer carries an ETag only when the
// client sent If-None-Match, and a 304 only while nothing changed.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/server-on.js';
import type { TestServer } from '../support/server.js';
import http from 'node:http';

/** A GET with its own Host header (fetch sends the URL's). */
function getWithHost(base: string, path: string, host: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      base + path,
      { headers: { Host: host, Authorization: 'Token admin-key-0123456789' } },
      (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve(JSON.parse(text)));
      },
    );
    req.on('error', reject);
  });
}

async function made(srv: TestServer, path: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const r = await srv.req('POST', path, body);
  expect(r.status, JSON.stringify(r.body)).to.equal(201);
  return r.body;
}

const PAGE = '/api/ipam/prefixes/?network__net_contained_or_equal=10.0.0.0/8&ordering=prefix&limit=10';

for (const backend of BACKENDS) {
  describe(`list pages and their tags on ${backend.name}`, function () {
    this.timeout(60000);
    let site = '';
    const srv = serverOn(backend, async (s) => {
      site = (await made(s, '/api/dcim/sites/', { name: 'alpha', slug: 'alpha' })).id;
      for (let i = 0; i < 3; i++) await made(s, '/api/ipam/prefixes/', { prefix: `10.${i}.0.0/16`, site });
    });

    it('a page read again after writes shows them: a nested site renamed, a row added, a row deleted', async () => {
      const first = await srv.req('GET', PAGE);
      expect(first.body.results.map((p: any) => p.site.name)).to.deep.equal(['alpha', 'alpha', 'alpha']);
      expect((await srv.req('GET', PAGE)).body, 'the same page twice').to.deep.equal(first.body);
      expect((await srv.req('PATCH', `/api/dcim/sites/${site}/`, { name: 'beta' })).status).to.equal(200);
      expect((await srv.req('GET', PAGE)).body.results.map((p: any) => p.site.name)).to.deep.equal([
        'beta',
        'beta',
        'beta',
      ]);
      const added = await made(srv, '/api/ipam/prefixes/', { prefix: '10.0.0.0/8' });
      const after = (await srv.req('GET', PAGE)).body;
      expect(after.count).to.equal(4);
      expect(after.results[0].id).to.equal(added.id);
      expect((await srv.req('DELETE', `/api/ipam/prefixes/${added.id}/`)).status).to.equal(204);
      expect((await srv.req('GET', PAGE)).body).to.deep.equal({
        ...first.body,
        results: first.body.results.map((p: any) => ({ ...p, site: { ...p.site, display: 'beta', name: 'beta' } })),
      });
    });

    it('a page asked under another Host names that host in its links', async () => {
      const own = await srv.req('GET', PAGE.replace('limit=10', 'limit=1'));
      expect(own.body.next).to.match(/^http:\/\/127\.0\.0\.1:/);
      const other = await getWithHost(srv.url, PAGE.replace('limit=10', 'limit=1'), 'inventory.example');
      expect(other.next).to.match(/^http:\/\/inventory\.example\//);
      expect(
        (await srv.req('GET', PAGE.replace('limit=10', 'limit=1'))).body.next,
        'and the first host its own',
      ).to.equal(own.body.next);
    });

    it('an ETag only on If-None-Match; 304 while unchanged, 200 with a new tag after a write', async () => {
      const plain = await srv.req('GET', PAGE);
      expect(plain.headers.get('etag'), 'no tag unasked').to.equal(null);
      const asked = await srv.req('GET', PAGE, undefined, undefined, { 'If-None-Match': '"none"' });
      expect(asked.status).to.equal(200);
      const tag = asked.headers.get('etag')!;
      expect(tag).to.match(/^W\/"/);
      expect(asked.body).to.deep.equal(plain.body);
      const same = await srv.req('GET', PAGE, undefined, undefined, { 'If-None-Match': tag });
      expect(same.status).to.equal(304);
      expect(same.body).to.equal(null);
      expect(same.headers.get('etag')).to.equal(tag);
      // A write to another resource that a prefix page nests (its site) moves the tag too.
      expect((await srv.req('PATCH', `/api/dcim/sites/${site}/`, { description: 'moved' })).status).to.equal(200);
      const changed = await srv.req('GET', PAGE, undefined, undefined, { 'If-None-Match': tag });
      expect(changed.status).to.equal(200);
      expect(changed.headers.get('etag')).to.not.equal(tag);
      expect(changed.body.results[0].site.id).to.equal(site);
    });

    it('pages read while a write lands are never kept past it: the next read shows the write', async () => {
      for (let i = 0; i < 30; i++) {
        const name = `race-${i}`;
        const reads = Array.from({ length: 4 }, () => srv.req('GET', PAGE));
        const write = srv.req('PATCH', `/api/dcim/sites/${site}/`, { name });
        for (const r of [...(await Promise.all(reads)), await write]) expect(r.status).to.equal(200);
        const after = await srv.req('GET', PAGE);
        expect(
          after.body.results.map((p: any) => p.site.name),
          `round ${i}`,
        ).to.deep.equal(after.body.results.map(() => name));
      }
    });

    it('single objects keep their strong version tag', async () => {
      const one = await srv.req('GET', `/api/dcim/sites/${site}/`);
      expect(one.headers.get('etag')).to.match(/^"\d+"$/);
    });
  });
}
