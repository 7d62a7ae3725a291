// NetBox's assigned_object_type / assigned_object_id / assigned_object on IP addresses, on every backend:
// served from `interface` / `vminterface`, written as the pair (setting one fk, clearing the other),
// refused as NetBox refuses a bad pair, beside the fks (the style that changes the assignment wins), and
// filtered by as NetBox filters.
import { UUID_IDS } from '../../engine/schema/id-style.js';
import { expect } from 'chai';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/server-on.js';
import type { TestServer } from '../support/server.js';
import { resource } from '../../engine/schema/registry.js';
import { heldForms } from '../../server/serialize.js';

async function made(srv: TestServer, path: string, body: unknown): Promise<Record<string, any>> {
  const r = await srv.req('POST', path, body);
  expect(r.status, JSON.stringify(r.body)).to.equal(201);
  return r.body;
}

const IPS = '/api/ipam/ip-addresses/';

for (const backend of BACKENDS) {
  describe(`assigned_object on IP addresses on ${backend.name}`, function () {
    this.timeout(60000);
    const ids: Record<string, string> = {};
    const srv = serverOn(backend, async (s) => {
      const site = await made(s, '/api/dcim/sites/', { name: 's', slug: 's' });
      const dev = await made(s, '/api/dcim/devices/', { name: 'r1', site: site.id });
      ids.eth0 = (await made(s, '/api/dcim/interfaces/', { device: dev.id, name: 'eth0', type: 'virtual' })).id;
      ids.eth1 = (await made(s, '/api/dcim/interfaces/', { device: dev.id, name: 'eth1', type: 'virtual' })).id;
      const vm = await made(s, '/api/virtualization/virtual-machines/', { name: 'vm1' });
      ids.veth = (await made(s, '/api/virtualization/interfaces/', { virtual_machine: vm.id, name: 'veth0' })).id;
    });
    const ip = async (id: string) => (await srv.req('GET', `${IPS}${id}/`)).body;
    const write = async (method: string, path: string, body: unknown, status = 200) => {
      const r = await srv.req(method, path, body);
      expect(r.status, JSON.stringify(r.body)).to.equal(status);
      return r.body;
    };

    it('serves the pair and the brief object from interface and vminterface, null when neither', async () => {
      const a = await made(srv, IPS, { address: '10.0.0.1/24', interface: ids.eth0 });
      expect(a).to.include({ assigned_object_type: 'dcim.interface', assigned_object_id: ids.eth0 });
      expect(a.assigned_object).to.deep.equal(a.interface);
      expect(a.assigned_object).to.include({ id: ids.eth0, name: 'eth0' });
      const b = await made(srv, IPS, { address: '10.0.0.2/24', vminterface: ids.veth });
      expect(b).to.include({ assigned_object_type: 'virtualization.vminterface', assigned_object_id: ids.veth });
      expect(b.assigned_object.url).to.match(/\/api\/virtualization\/interfaces\//);
      const c = await made(srv, IPS, { address: '10.0.0.3/24' });
      expect(c).to.include({ assigned_object_type: null, assigned_object_id: null, assigned_object: null });
      const list = await srv.req('GET', `${IPS}?address=10.0.0.1/24`);
      expect(list.body.results[0].assigned_object.id).to.equal(ids.eth0);
    });

    it('takes the pair on POST, PATCH and PUT: sets that fk and clears the other', async () => {
      const a = await made(srv, IPS, {
        address: '10.1.0.1/24',
        assigned_object_type: 'dcim.interface',
        assigned_object_id: ids.eth0,
      });
      expect(a.interface.id).to.equal(ids.eth0);
      expect(a.vminterface).to.equal(null);
      const moved = await write('PATCH', `${IPS}${a.id}/`, {
        assigned_object_type: 'virtualization.vminterface',
        assigned_object_id: ids.veth,
      });
      expect(moved).to.include({ interface: null, assigned_object_type: 'virtualization.vminterface' });
      expect(moved.vminterface.id).to.equal(ids.veth);
      const put = await write('PUT', `${IPS}${a.id}/`, {
        address: '10.1.0.1/24',
        assigned_object_type: 'dcim.interface',
        assigned_object_id: ids.eth1,
      });
      expect(put).to.include({ vminterface: null, assigned_object_id: ids.eth1 });
      // The id alone keeps the stored type (NetBox merges a PATCH into the object).
      const idOnly = await write('PATCH', `${IPS}${a.id}/`, { assigned_object_id: ids.eth0 });
      expect(idOnly).to.include({ assigned_object_type: 'dcim.interface', assigned_object_id: ids.eth0 });
      const cleared = await write('PATCH', `${IPS}${a.id}/`, { assigned_object_type: null, assigned_object_id: null });
      expect(cleared).to.include({ interface: null, vminterface: null, assigned_object: null });
      expect((await ip(a.id)).assigned_object_type).to.equal(null);
    });

    it('refuses a pair NetBox refuses, with its messages', async () => {
      const bad = async (body: Record<string, unknown>) =>
        (await write('POST', IPS, { address: '10.2.0.1/24', ...body }, 400)) as Record<string, string[]>;
      expect(await bad({ assigned_object_type: 'dcim.interface' })).to.deep.equal({
        assigned_object_id: ['This field cannot be null.'],
      });
      expect(await bad({ assigned_object_id: ids.eth0 })).to.deep.equal({
        assigned_object_type: ['This field cannot be null.'],
      });
      expect(await bad({ assigned_object_type: 'dcim.device', assigned_object_id: ids.eth0 })).to.deep.equal({
        assigned_object_type: ['Invalid content type: dcim.device'],
      });
      expect(await bad({ assigned_object_type: 'interface', assigned_object_id: ids.eth0 })).to.deep.equal({
        assigned_object_type: ["Invalid value. Specify a content type as '<app_label>.<model_name>'."],
      });
      // An id of the other type names no object of this one.
      expect(
        await bad({ assigned_object_type: 'virtualization.vminterface', assigned_object_id: ids.eth0 }),
      ).to.deep.equal({ assigned_object_id: [`Related object not found using the provided value: ${ids.eth0}.`] });
      const notId = await bad({ assigned_object_type: 'dcim.interface', assigned_object_id: 'eth0' });
      expect(Object.keys(notId)).to.deep.equal(['assigned_object_id']);
      expect((await srv.req('GET', `${IPS}?address=10.2.0.1/24`)).body.count).to.equal(0);
    });

    it('lets the style that changes the assignment win over the other, and refuses two changes', async () => {
      const a = await made(srv, IPS, { address: '10.3.0.1/24', interface: ids.eth0 });
      // A NetBox client writes back what it read with only the pair changed: the stale interface yields.
      const back = (o: Record<string, any>) => ({ ...o, status: o.status.value }); // choices are written as values
      const pairChanged = await write('PUT', `${IPS}${a.id}/`, {
        ...back(a),
        assigned_object_type: 'dcim.interface',
        assigned_object_id: ids.eth1,
      });
      expect(pairChanged.interface.id).to.equal(ids.eth1);
      // A client of the fks writes back what it read with only interface changed: the stale pair yields.
      const fkChanged = await write('PUT', `${IPS}${a.id}/`, { ...back(pairChanged), interface: ids.eth0 });
      expect(fkChanged).to.include({ assigned_object_id: ids.eth0 });
      const agree = await write('PATCH', `${IPS}${a.id}/`, {
        vminterface: ids.veth,
        interface: null,
        assigned_object_type: 'virtualization.vminterface',
        assigned_object_id: ids.veth,
      });
      expect(agree.assigned_object.id).to.equal(ids.veth);
      const both = await write(
        'PATCH',
        `${IPS}${a.id}/`,
        { interface: ids.eth0, assigned_object_type: 'dcim.interface', assigned_object_id: ids.eth1 },
        400,
      );
      expect(Object.keys(both)).to.deep.equal(['assigned_object_type']);
      expect((await ip(a.id)).assigned_object_id).to.equal(ids.veth);
    });

    it('narrows answers with fields= and omit=, and takes the pair in bulk writes', async () => {
      await made(srv, IPS, { address: '10.4.0.1/24', interface: ids.eth1 });
      const r = await srv.req('GET', `${IPS}?address=10.4.0.1/24&fields=assigned_object_id,assigned_object`);
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(Object.keys(r.body.results[0]).sort()).to.deep.equal([
        'assigned_object',
        'assigned_object_id',
        'id',
        'url',
      ]);
      expect(r.body.results[0].assigned_object.name).to.equal('eth1');
      const typeOnly = await srv.req('GET', `${IPS}?address=10.4.0.1/24&fields=assigned_object_type`);
      expect(typeOnly.body.results[0]).to.include({ assigned_object_type: 'dcim.interface' });
      const omitted = await srv.req('GET', `${IPS}?address=10.4.0.1/24&omit=assigned_object`);
      expect(omitted.body.results[0]).to.not.have.property('assigned_object');
      expect(omitted.body.results[0]).to.have.property('assigned_object_type', 'dcim.interface');
      const bulk = await write(
        'POST',
        IPS,
        ['10.4.0.2/24', '10.4.0.3/24'].map((address) => ({
          address,
          assigned_object_type: 'virtualization.vminterface',
          assigned_object_id: ids.veth,
        })),
        201,
      );
      expect(bulk.map((x: any) => x.vminterface.id)).to.deep.equal([ids.veth, ids.veth]);
    });

    it('filters by assigned_object_type and assigned_object_id (and assigned_object, as Ansible sends)', async () => {
      await made(srv, IPS, { address: '10.5.0.1/24', interface: ids.eth0 });
      await made(srv, IPS, { address: '10.5.0.2/24', vminterface: ids.veth });
      await made(srv, IPS, { address: '10.5.0.3/24' });
      const got = async (query: string) => {
        const r = await srv.req('GET', `${IPS}?parent=10.5.0.0/24&${query}`);
        expect(r.status, JSON.stringify(r.body)).to.equal(200);
        return r.body.results.map((o: { address: string }) => o.address).sort();
      };
      expect(await got('assigned_object_type=dcim.interface')).to.deep.equal(['10.5.0.1/24']);
      expect(await got('assigned_object_type=virtualization.vminterface')).to.deep.equal(['10.5.0.2/24']);
      expect(await got('assigned_object_type=null')).to.deep.equal(['10.5.0.3/24']);
      expect(await got('assigned_object_type__n=dcim.interface')).to.deep.equal(['10.5.0.2/24', '10.5.0.3/24']);
      expect(await got(`assigned_object_id=${ids.veth}`)).to.deep.equal(['10.5.0.2/24']);
      expect(await got(`assigned_object_id=${ids.eth0}&assigned_object_id=${ids.veth}`)).to.deep.equal([
        '10.5.0.1/24',
        '10.5.0.2/24',
      ]);
      expect(await got(`assigned_object=${ids.eth0}&assigned_object_id=${ids.eth0}`)).to.deep.equal(['10.5.0.1/24']);
      const bad = await srv.req('GET', `${IPS}?assigned_object_type=dcim.device&assigned_object_id=eth0`);
      expect(bad.status).to.equal(400);
      expect(Object.keys(bad.body).sort()).to.deep.equal(['assigned_object_id', 'assigned_object_type']);
    });

    it('describes the pair in OPTIONS and OpenAPI', async () => {
      const o = await srv.req('OPTIONS', IPS);
      expect(o.body.actions.POST.assigned_object_type).to.include({ read_only: false, required: false });
      expect(o.body.actions.POST.assigned_object_id).to.include({ read_only: false });
      // NetBox's integer where ids are integers (its metadata says so), the UUID's text otherwise.
      const idType = typeof (ids.eth0 as unknown) === 'number' ? 'integer' : 'string';
      expect(o.body.actions.POST.assigned_object_id.type).to.equal(idType);
      expect(o.body.actions.POST.assigned_object).to.include({ read_only: true });
      const doc = (await srv.req('GET', '/openapi.json')).body;
      const read = doc.components.schemas.IpAddress.properties;
      expect(read.assigned_object_type.enum).to.deep.equal(['dcim.interface', 'virtualization.vminterface', null]);
      expect(doc.components.schemas.IpAddressWrite.properties).to.have.property('assigned_object_id');
    });
  });
}

describe('assigned_object in the held answer of a committed write', () => {
  it('gives the pair and the object as {id, url}, from the row alone', () => {
    const eth = '0190f0c0-0000-7000-8000-000000000001';
    const rows = [
      { id: '0190f0c0-0000-7000-8000-00000000000a', address: '10.0.0.1/24', interface: null, vminterface: eth },
      { id: '0190f0c0-0000-7000-8000-00000000000b', address: '10.0.0.2/24', interface: null, vminterface: null },
    ];
    const [on, off] = heldForms(resource('ip_address'), rows, 'http://x', UUID_IDS);
    expect(on).to.include({ assigned_object_type: 'virtualization.vminterface', assigned_object_id: eth });
    expect(on.assigned_object).to.deep.equal({ id: eth, url: `http://x/api/virtualization/interfaces/${eth}/` });
    expect(off).to.include({ assigned_object_type: null, assigned_object_id: null, assigned_object: null });
  });
});
