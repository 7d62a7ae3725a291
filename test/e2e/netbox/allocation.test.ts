// IP allocation as NetBox has it (#17 item 3), over sockets on every backend: available-prefixes
// and available-ips list (a plain list, limit honoured) and allocate (first fits in address order,
// the fields and checks of a create, a list all or none, 409 naming what ran out, 400 for bad input).
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import { BACKENDS } from '../conformance/backends.js';
import { startServer, type TestServer } from '../../support/server.js';

const VIEWER = 'viewer-key-0123456789';
const PREFIX_ADDER = 'prefix-adder-0123456789';

for (const backend of BACKENDS) {
  describe(`IP allocation on ${backend.name}`, function () {
    this.timeout(60000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    let srv: TestServer;
    const make = async (prefix: string, extra: Record<string, unknown> = {}): Promise<string> => {
      const r = await srv.req('POST', '/api/ipam/prefixes/', { prefix, ...extra });
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      return r.body.id;
    };
    const count = async (path: string, q: string) => (await srv.req('GET', `${path}?${q}&limit=1`)).body.count;

    before(async function () {
      db = await backend.url();
      if (!db) {
        this.skip();
        return;
      }
      srv = await startServer({
        storage: db.url,
        tokens: [
          { key: 'admin-key-0123456789', permissions: ['*'] },
          { key: VIEWER, permissions: ['ipam.view_prefix'] },
          { key: PREFIX_ADDER, permissions: ['ipam.view_prefix', 'ipam.add_prefix'] },
        ],
      });
    });
    after(async () => {
      await srv?.close();
      await db?.drop();
    });

    it('GET available-prefixes: the largest free blocks in address order, as NetBox lists them', async () => {
      const id = await make('10.10.0.0/24');
      await make('10.10.0.64/26');
      await make('10.10.0.64/28'); // nested: counts once
      await make('10.10.0.0/24'); // the parent again: no child of itself
      const r = await srv.req('GET', `/api/ipam/prefixes/${id}/available-prefixes/`, undefined, VIEWER);
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal([
        { family: 4, prefix: '10.10.0.0/26', vrf: null },
        { family: 4, prefix: '10.10.0.128/25', vrf: null },
      ]);
      expect((await srv.req('GET', `/api/ipam/prefixes/${id}/available-prefixes/?limit=1`)).body).to.have.length(1);
      expect(
        (await srv.req('GET', '/api/ipam/prefixes/00000000-0000-4000-8000-000000000000/available-prefixes/')).status,
      ).to.equal(404);
      expect((await srv.req('GET', `/api/ipam/prefixes/${id}/available-prefixes/`, undefined, null)).status).to.equal(
        401,
      );
    });

    it(
      'POST available-prefixes: the first fit, created ' + 'with the fields given; a list one after the other',
      async () => {
        const id = await make('10.20.0.0/16');
        await make('10.20.0.0/26');
        await make('10.20.1.0/24');
        await srv.req('POST', '/api/extras/tags/', { name: 'Alloc', slug: 'alloc' });
        const one = await srv.req('POST', `/api/ipam/prefixes/${id}/available-prefixes/`, {
          prefix_length: 24,
          status: 'reserved',
          description: 'pool',
          tags: ['alloc'],
        });
        expect(one.status, JSON.stringify(one.body)).to.equal(201);
        expect(one.body).to.include({ prefix: '10.20.2.0/24', description: 'pool', prefix_length: 24 });
        expect(one.body.status.value).to.equal('reserved');
        expect(one.body.tags.map((t: { slug: string }) => t.slug)).to.deep.equal(['alloc']);
        expect((await srv.req('GET', `/api/ipam/prefixes/${one.body.id}/`)).body.prefix).to.equal('10.20.2.0/24');
        const list = await srv.req('POST', `/api/ipam/prefixes/${id}/available-prefixes/`, [
          { prefix_length: 26 },
          { prefix_length: 23 },
          { prefix_length: 25 },
        ]);
        expect(list.status, JSON.stringify(list.body)).to.equal(201);
        expect(list.body.map((p: { prefix: string }) => p.prefix)).to.deep.equal([
          '10.20.0.64/26',
          '10.20.4.0/23',
          '10.20.0.128/25',
        ]);
      },
    );

    it('a list that runs out is a 409 naming what ran out, and creates nothing', async () => {
      const id = await make('10.30.0.0/24');
      const path = '/api/ipam/prefixes/';
      const before = await count(path, 'within=10.30.0.0/24');
      const r = await srv.req('POST', `/api/ipam/prefixes/${id}/available-prefixes/`, [
        { prefix_length: 25 },
        { prefix_length: 25 },
        { prefix_length: 26 },
      ]);
      expect(r.status).to.equal(409);
      expect(r.body.detail).to.match(/Insufficient space.*no free \/26 is left in 10\.30\.0\.0\/24 \(request 3 of 3\)/);
      expect(await count(path, 'within=10.30.0.0/24')).to.equal(before);
      const full = await srv.req('POST', `/api/ipam/prefixes/${id}/available-prefixes/`, [
        { prefix_length: 25 },
        { prefix_length: 25 },
      ]);
      expect(full.status).to.equal(201);
      expect(
        (await srv.req('POST', `/api/ipam/prefixes/${id}/available-prefixes/`, { prefix_length: 32 })).status,
      ).to.equal(409);
      expect((await srv.req('GET', `/api/ipam/prefixes/${id}/available-prefixes/`)).body).to.deep.equal([]);
    });

    it(
      'bad input is a 400 and creates nothing: prefix_length missing, not longer than the parent, past the ' +
        'family, bad fields',
      async () => {
        const id = await make('10.40.0.0/24');
        const post = (body: unknown) => srv.req('POST', `/api/ipam/prefixes/${id}/available-prefixes/`, body);
        expect((await post({})).body).to.deep.equal({ prefix_length: ['This field is required.'] });
        expect((await post({ prefix_length: '26' })).body).to.deep.equal({
          prefix_length: ['A valid integer is required.'],
        });
        for (const l of [24, 8, 33]) {
          const r = await post({ prefix_length: l });
          expect(r.status).to.equal(400);
          expect(r.body.prefix_length[0]).to.match(/longer than the parent's \/24 and at most \/32/);
        }
        const bad = await post([{ prefix_length: 26 }, { prefix_length: 26, status: 'bogus' }]);
        expect(bad.status).to.equal(400);
        expect(bad.body).to.be.an('array').with.length(2);
        expect(bad.body[1]).to.have.key('status');
        expect((await post([])).status).to.equal(400);
        expect(await count('/api/ipam/prefixes/', 'within=10.40.0.0/24')).to.equal(0);
      },
    );

    it('IPv6: available prefixes and a first fit', async () => {
      const id = await make('2001:db8:40::/48');
      await make('2001:db8:40::/64');
      const free = (await srv.req('GET', `/api/ipam/prefixes/${id}/available-prefixes/?limit=3`)).body;
      expect(free).to.deep.equal([
        { family: 6, prefix: '2001:db8:40:1::/64', vrf: null },
        { family: 6, prefix: '2001:db8:40:2::/63', vrf: null },
        { family: 6, prefix: '2001:db8:40:4::/62', vrf: null },
      ]);
      const r = await srv.req('POST', `/api/ipam/prefixes/${id}/available-prefixes/`, { prefix_length: 56 });
      expect(r.body.prefix).to.equal('2001:db8:40:100::/56');
    });

    it(
      "GET available-ips: first free addresses with the parent's length; IPv4 network/broadcast and IPv6 " +
        'anycast never offered',
      async () => {
        const id = await make('10.50.0.0/29');
        await srv.req('POST', '/api/ipam/ip-addresses/', { address: '10.50.0.2/32' });
        // any mask: the host is what counts
        await srv.req('POST', '/api/ipam/ip-addresses/', { address: '10.50.0.3/24' });
        const r = await srv.req('GET', `/api/ipam/prefixes/${id}/available-ips/`, undefined, VIEWER);
        expect(r.status).to.equal(200);
        expect(r.body.map((a: { address: string }) => a.address)).to.deep.equal([
          '10.50.0.1/29',
          '10.50.0.4/29',
          '10.50.0.5/29',
          '10.50.0.6/29',
        ]);
        expect(r.body[0]).to.deep.equal({ family: 4, address: '10.50.0.1/29', vrf: null });
        expect((await srv.req('GET', `/api/ipam/prefixes/${id}/available-ips/?limit=2`)).body).to.have.length(2);
        const p31 = await make('10.50.1.0/31');
        expect(
          (await srv.req('GET', `/api/ipam/prefixes/${p31}/available-ips/`)).body.map(
            (a: { address: string }) => a.address,
          ),
        ).to.deep.equal(['10.50.1.0/31', '10.50.1.1/31']);
        const v6 = await make('2001:db8:50::/64');
        expect(
          (await srv.req('GET', `/api/ipam/prefixes/${v6}/available-ips/?limit=2`)).body.map(
            (a: { address: string }) => a.address,
          ),
        ).to.deep.equal(['2001:db8:50::1/64', '2001:db8:50::2/64']);
        const big = await make('10.51.0.0/16');
        expect(
          (await srv.req('GET', `/api/ipam/prefixes/${big}/available-ips/`)).body,
          'default limit as NetBox: 50',
        ).to.have.length(50);
      },
    );

    it('POST available-ips: {} or fields, one or a list, all or none; 409 counts what is left', async () => {
      const id = await make('10.60.0.0/30');
      const one = await srv.req('POST', `/api/ipam/prefixes/${id}/available-ips/`, {
        description: 'gw',
        dns_name: 'gw.example.net',
      });
      expect(one.status, JSON.stringify(one.body)).to.equal(201);
      expect(one.body).to.include({ address: '10.60.0.1/30', description: 'gw', dns_name: 'gw.example.net' });
      const short = await srv.req('POST', `/api/ipam/prefixes/${id}/available-ips/`, [{}, {}]);
      expect(short.status).to.equal(409);
      expect(short.body.detail).to.equal(
        'An insufficient number of IP addresses are available within 10.60.0.0/30 (2 requested, 1 available).',
      );
      const bad = await srv.req('POST', `/api/ipam/prefixes/${id}/available-ips/`, [{ status: 'bogus' }]);
      expect(bad.status).to.equal(400);
      const last = await srv.req('POST', `/api/ipam/prefixes/${id}/available-ips/`, {});
      expect(last.body.address).to.equal('10.60.0.2/30');
      expect((await srv.req('GET', `/api/ipam/prefixes/${id}/available-ips/`)).body).to.deep.equal([]);
      const v6 = await make('2001:db8:60::/127');
      const pair = await srv.req('POST', `/api/ipam/prefixes/${v6}/available-ips/`, [{}, {}]);
      expect(pair.body.map((a: { address: string }) => a.address)).to.deep.equal([
        '2001:db8:60::/127',
        '2001:db8:60::1/127',
      ]);
    });

    it(
      'space freed before earlier allocations (a delete, a move) is handed out again; children made meanwhile ' +
        'are respected',
      async () => {
        const id = await make('10.90.0.0/24');
        const take = async (len: number) =>
          (await srv.req('POST', `/api/ipam/prefixes/${id}/available-prefixes/`, { prefix_length: len })).body;
        const [a, b] = [await take(26), await take(26)];
        expect([a.prefix, b.prefix]).to.deep.equal(['10.90.0.0/26', '10.90.0.64/26']);
        expect((await srv.req('DELETE', `/api/ipam/prefixes/${a.id}/`)).status).to.equal(204);
        expect((await take(26)).prefix, 'after a delete').to.equal('10.90.0.0/26');
        expect((await take(26)).prefix).to.equal('10.90.0.128/26');
        expect((await srv.req('PATCH', `/api/ipam/prefixes/${b.id}/`, { prefix: '10.91.0.0/26' })).status).to.equal(
          200,
        );
        expect((await take(26)).prefix, 'after a move').to.equal('10.90.0.64/26');
        expect((await srv.req('PATCH', `/api/ipam/prefixes/${b.id}/`, { description: 'no move' })).status).to.equal(
          200,
        );
        expect((await take(27)).prefix).to.equal('10.90.0.192/27');
        const big = await make('10.92.0.0/16');
        const first = await srv.req('POST', `/api/ipam/prefixes/${big}/available-prefixes/`, { prefix_length: 24 });
        expect(first.body.prefix).to.equal('10.92.0.0/24');
        await make('10.92.0.0/23'); // made by hand: reaches past the last allocation's end
        await make('10.92.2.0/24');
        expect(
          (await srv.req('POST', `/api/ipam/prefixes/${big}/available-prefixes/`, { prefix_length: 24 })).body.prefix,
        ).to.equal('10.92.3.0/24');
        expect(
          (await srv.req('POST', `/api/ipam/prefixes/${big}/available-prefixes/`, { prefix_length: 25 })).body.prefix,
        ).to.equal('10.92.4.0/25');
        expect(
          (await srv.req('POST', `/api/ipam/prefixes/${big}/available-prefixes/`, { prefix_length: 28 })).body.prefix,
          'a longer length than before',
        ).to.equal('10.92.4.128/28');
        const ips = await make('10.93.0.0/29');
        const [x] = (await srv.req('POST', `/api/ipam/prefixes/${ips}/available-ips/`, [{}, {}])).body;
        expect((await srv.req('DELETE', `/api/ipam/ip-addresses/${x.id}/`)).status).to.equal(204);
        expect((await srv.req('POST', `/api/ipam/prefixes/${ips}/available-ips/`, {})).body.address).to.equal(
          '10.93.0.1/29',
        );
        expect((await srv.req('POST', `/api/ipam/prefixes/${ips}/available-ips/`, {})).body.address).to.equal(
          '10.93.0.3/29',
        );
      },
    );

    it('is in the OpenAPI document (GET and POST of both paths); other methods are a 405', async () => {
      const doc = (await srv.req('GET', '/openapi.json')).body;
      for (const p of ['available-prefixes', 'available-ips'])
        expect(Object.keys(doc.paths[`/api/ipam/prefixes/{id}/${p}/`])).to.include.members(['get', 'post']);
      const id = await make('10.80.0.0/24');
      expect((await srv.req('DELETE', `/api/ipam/prefixes/${id}/available-prefixes/`)).status).to.equal(405);
    });

    it('permissions: view on prefixes to list; add on prefixes / IP addresses to allocate', async () => {
      const id = await make('10.70.0.0/24');
      expect(
        (await srv.req('POST', `/api/ipam/prefixes/${id}/available-prefixes/`, { prefix_length: 26 }, VIEWER)).status,
      ).to.equal(403);
      expect(
        (await srv.req('POST', `/api/ipam/prefixes/${id}/available-prefixes/`, { prefix_length: 26 }, PREFIX_ADDER))
          .status,
      ).to.equal(201);
      expect((await srv.req('POST', `/api/ipam/prefixes/${id}/available-ips/`, {}, PREFIX_ADDER)).status).to.equal(403);
      expect(
        (await srv.req('GET', `/api/ipam/prefixes/${id}/available-ips/`, undefined, PREFIX_ADDER)).status,
      ).to.equal(200);
    });
  });
}
