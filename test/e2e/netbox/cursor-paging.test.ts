// Cursor paging (NetBox 4.6): start=<id> lists objects in id order from that id on; next carries the
// following start; count is null; with offset or ordering, or a value that is not an id, a 400.
import { expect } from 'chai';
import { BACKENDS } from '../conformance/backends.js';
import type { TestServer } from '../../support/server.js';
import { serverOn } from '../../support/backend-server.js';

const FIRST = '00000000-0000-0000-0000-000000000000';

for (const backend of BACKENDS) {
  describe(`cursor paging with start on ${backend.name}`, function () {
    this.timeout(60000);
    const on = serverOn(backend);
    let srv: TestServer;
    let ids: string[] = [];
    before(async function () {
      if (!on.srv) return;
      srv = on.srv;
      const made = await srv.req(
        'POST',
        '/api/dcim/sites/',
        Array.from({ length: 25 }, (_, i) => ({ name: `s${i}`, slug: `s${i}`, status: i % 2 ? 'active' : 'planned' })),
      );
      ids = (made.body as { id: string }[]).map((s) => s.id).sort();
    });

    it('walks every object once, in id order, following next', async () => {
      const seen: string[] = [];
      let url: string | null = `/api/dcim/sites/?limit=10&start=${FIRST}`;
      const sizes: number[] = [];
      while (url) {
        const r = await srv.req('GET', url.replace(srv.url, ''));
        expect(r.status).to.equal(200);
        expect([r.body.count, r.body.previous]).to.deep.equal([null, null]);
        sizes.push(r.body.results.length);
        seen.push(...r.body.results.map((s: { id: string }) => s.id));
        url = r.body.next;
        if (url) expect(new URL(url).searchParams.get('start')).to.equal(ids[seen.length]);
      }
      expect(sizes).to.deep.equal([10, 10, 5]);
      expect(seen).to.deep.equal(ids);
    });

    it('is inclusive, combines with filters and fields', async () => {
      const r = await srv.req('GET', `/api/dcim/sites/?start=${ids[3]}&limit=2&fields=name`);
      expect(r.body.results.map((s: { id: string }) => s.id)).to.deep.equal(ids.slice(3, 5));
      const active = await srv.req('GET', `/api/dcim/sites/?status=active&start=${FIRST}&limit=100`);
      expect(active.body.results).to.have.length(12);
      expect(active.body.next).to.equal(null);
    });

    it('with offset, with ordering, or not an id: 400 naming start', async () => {
      for (const q of [`start=${ids[0]}&offset=10`, `start=${ids[0]}&ordering=name`, 'start=12']) {
        const r = await srv.req('GET', `/api/dcim/sites/?${q}`);
        expect(r.status, q).to.equal(400);
        expect(r.body).to.have.property('start');
      }
    });
  });
}
