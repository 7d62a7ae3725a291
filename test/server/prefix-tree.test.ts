// A prefix's place in the containment tree on every backend: `parent` (the nearest strictly
// containing prefix), `children` (how many have it as parent) and the `parent` filter (direct
// children, by the parent's id or CIDR), with repeated prefixes as siblings.
import { expect } from 'chai';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/backend-server.js';

const PREFIXES = [
  '10.0.0.0/8',
  '10.1.0.0/16',
  '10.1.0.0/16',
  '10.1.1.0/24',
  '10.1.2.0/24',
  '10.1.2.128/25',
  '10.2.0.0/24',
  '192.168.0.0/24',
  '2001:db8::/32',
  '2001:db8:1::/48',
  '2001:db8:1:2::/64',
];

for (const backend of BACKENDS) {
  describe(`prefix parent and children (${backend.name})`, function () {
    this.timeout(60_000);
    const on = serverOn(backend);
    const ids = new Map<string, string[]>();

    before(async () => {
      const r = await on.srv.req(
        'POST',
        '/api/ipam/prefixes/',
        PREFIXES.map((prefix) => ({ prefix, status: 'active' })),
      );
      expect(r.status).to.equal(201);
      for (const o of r.body) ids.set(o.prefix, [...(ids.get(o.prefix) ?? []), o.id]);
    });

    const list = async (q: string) => {
      const r = await on.srv.req('GET', `/api/ipam/prefixes/?${q}`);
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      return r.body;
    };

    it('lists direct children by the parent id, repeats of a child included, nothing deeper', async () => {
      const got = await list(`parent=${ids.get('10.0.0.0/8')![0]}`);
      expect(got.results.map((o: any) => o.prefix)).to.deep.equal(['10.1.0.0/16', '10.1.0.0/16', '10.2.0.0/24']);
      expect(got.count).to.equal(3);
    });

    it('takes a CIDR too, host bits ignored, and pages the children', async () => {
      expect((await list('parent=10.1.0.0/16')).results.map((o: any) => o.prefix)).to.deep.equal([
        '10.1.1.0/24',
        '10.1.2.0/24',
      ]);
      expect((await list('parent=10.1.9.9/16&limit=1&offset=1')).results.map((o: any) => o.prefix)).to.deep.equal([
        '10.1.2.0/24',
      ]);
      expect((await list('parent=2001:db8::/32')).results.map((o: any) => o.prefix)).to.deep.equal(['2001:db8:1::/48']);
      expect((await list('parent=10.1.2.128/25')).count).to.equal(0);
    });

    it('combines with other filters and with OR of several parents', async () => {
      expect((await list('parent=10.0.0.0/8&mask_length=24')).results.map((o: any) => o.prefix)).to.deep.equal([
        '10.2.0.0/24',
      ]);
      expect((await list('parent=10.1.0.0/16&parent=10.1.2.0/24')).results.map((o: any) => o.prefix)).to.deep.equal([
        '10.1.1.0/24',
        '10.1.2.0/24',
        '10.1.2.128/25',
      ]);
    });

    it('reads parent and children on each prefix (on a list page when fields= asks for them)', async () => {
      expect((await list('limit=100')).results[0]).to.not.have.any.keys('parent', 'children');
      const byPrefix = new Map<string, any>(
        (await list('limit=100&fields=id,prefix,parent,children')).results.map((o: any) => [o.prefix, o]),
      );
      expect(byPrefix.get('10.0.0.0/8').parent).to.equal(null);
      expect(byPrefix.get('10.0.0.0/8').children).to.equal(3);
      expect(byPrefix.get('10.1.2.128/25').parent.prefix).to.equal('10.1.2.0/24');
      expect(byPrefix.get('10.1.2.128/25').children).to.equal(0);
      expect(byPrefix.get('10.1.1.0/24').parent.id).to.equal([...ids.get('10.1.0.0/16')!].sort()[0]);
      expect(byPrefix.get('2001:db8:1:2::/64').parent.prefix).to.equal('2001:db8:1::/48');
      expect(byPrefix.get('192.168.0.0/24').parent).to.equal(null);
      const one = await on.srv.req('GET', `/api/ipam/prefixes/${ids.get('10.1.2.0/24')![0]}/`);
      expect([one.body.parent.display, one.body.children]).to.deep.equal(['10.1.0.0/16', 1]);
    });

    it('leaves them out with fields= and omit= (and then does not work them out)', async () => {
      const [a] = (await list('prefix=10.1.2.0/24&fields=prefix,children')).results;
      expect(a).to.deep.equal({ id: ids.get('10.1.2.0/24')![0], url: a.url, prefix: '10.1.2.0/24', children: 1 });
      const [b] = (await list('prefix=10.1.2.0/24&omit=parent,children')).results;
      expect(b).to.not.have.any.keys('parent', 'children');
    });

    it('refuses an id of no prefix and a value that is no network, naming the parameter', async () => {
      const a = await on.srv.req('GET', '/api/ipam/prefixes/?parent=00000000-0000-4000-8000-000000000000');
      expect(a.status).to.equal(400);
      expect(a.body.parent[0]).to.match(/No prefix with id/);
      const b = await on.srv.req('GET', '/api/ipam/prefixes/?parent=banana');
      expect(b.status).to.equal(400);
      expect(b.body).to.have.property('parent');
    });

    if (backend.name === 'memory')
      it('is described by the OpenAPI document and OPTIONS', async () => {
        const doc = (await on.srv.req('GET', '/openapi.json')).body;
        expect(doc.components.schemas.Prefix.properties).to.include.keys('parent', 'children');
        expect(doc.paths['/api/ipam/prefixes/'].get.parameters.map((p: any) => p.name)).to.include('parent');
        const opts = (await on.srv.req('OPTIONS', '/api/ipam/prefixes/')).body;
        expect(opts.actions.POST.children).to.deep.include({ type: 'integer', read_only: true });
      });
  });
}
