// What Ansible's netbox.netbox sends along when it allocates (#17 item 10): netbox_prefix with
// first_available puts the parent in each body as `parent`, netbox_ip_address with state new as
// `prefix`, both as the user wrote them. Taken when they name the URL's prefix; anything else is
// still the unknown field it is.
import { expect } from 'chai';
import { startServer, type TestServer } from '../../support/server.js';

describe('allocation bodies naming their parent, as Ansible sends them', () => {
  let srv: TestServer;
  let parent: { id: string };
  before(async () => {
    srv = await startServer();
    parent = (await srv.req('POST', '/api/ipam/prefixes/', { prefix: '10.60.0.0/16', status: 'container' })).body;
  });
  after(async () => {
    await srv?.close();
  });

  it(
    'available-prefixes: `parent` naming the prefix (its block or id) is taken; another block or a non-block ' +
      'is a 400',
    async () => {
      const path = `/api/ipam/prefixes/${parent.id}/available-prefixes/`;
      const byBlock = await srv.req('POST', path, { parent: '10.60.0.0/16', prefix_length: 24, description: 'a' });
      expect(byBlock.status).to.equal(201);
      expect(byBlock.body).to.include({ prefix: '10.60.0.0/24', description: 'a' });
      expect(byBlock.body.parent.id).to.equal(parent.id); // the read-only field: the prefix it was carved from
      expect((await srv.req('POST', path, { parent: parent.id, prefix_length: 24 })).body.prefix).to.equal(
        '10.60.1.0/24',
      );
      for (const other of ['10.61.0.0/16', '10.60.0.0/17', '10.60.0.1/16', 'x', 16]) {
        const res = await srv.req('POST', path, { parent: other, prefix_length: 24 });
        expect(res.status, String(other)).to.equal(400);
        expect(res.body.parent, String(other)).to.deep.equal(['Unknown field.']);
      }
      expect((await srv.req('GET', '/api/ipam/prefixes/?within=10.60.0.0/16')).body.count).to.equal(2);
    },
  );

  it('available-ips: `prefix` naming the prefix is taken, in a list too; another one is a 400', async () => {
    const path = `/api/ipam/prefixes/${parent.id}/available-ips/`;
    const one = await srv.req('POST', path, { prefix: '10.60.0.0/16', dns_name: 'a.example.net' });
    expect(one.status).to.equal(201);
    expect(one.body).to.include({ address: '10.60.0.1/16', dns_name: 'a.example.net' });
    const two = await srv.req('POST', path, [{ prefix: '10.60.0.0/16' }, { prefix: parent.id }]);
    expect(two.status).to.equal(201);
    expect(two.body.map((a: { address: string }) => a.address)).to.deep.equal(['10.60.0.2/16', '10.60.0.3/16']);
    const other = await srv.req('POST', path, { prefix: '10.60.0.0/24' });
    expect(other.status).to.equal(400);
    expect(other.body.prefix).to.deep.equal(['Unknown field.']);
  });
});
