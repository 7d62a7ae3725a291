// NetBox 3.6/3.7 names on devices, on every backend: `device_role` written instead of `role` (single
// and bulk POST, PUT, PATCH; `role` wins when both are given), filtered like `role` (with `_id`,
// `__n`), served beside `role`; and `virtual_chassis`, served as null and ignored when written back.
import { expect } from 'chai';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/server-on.js';
import type { TestServer } from '../support/server.js';

async function made(srv: TestServer, path: string, body: unknown): Promise<Record<string, any>> {
  const r = await srv.req('POST', path, body);
  expect(r.status, JSON.stringify(r.body)).to.equal(201);
  return r.body;
}

for (const backend of BACKENDS) {
  describe(`device_role and virtual_chassis on devices on ${backend.name}`, function () {
    this.timeout(60000);
    const ids: Record<string, string> = {};
    const srv = serverOn(backend, async (s) => {
      ids.site = (await made(s, '/api/dcim/sites/', { name: 's', slug: 's' })).id;
      ids.leaf = (await made(s, '/api/dcim/device-roles/', { name: 'Leaf', slug: 'leaf' })).id;
      ids.spine = (await made(s, '/api/dcim/device-roles/', { name: 'Spine', slug: 'spine' })).id;
    });
    const names = async (path: string): Promise<string[]> => {
      const r = await srv.req('GET', path);
      expect(r.status, `${path}: ${JSON.stringify(r.body)}`).to.equal(200);
      return r.body.results.map((o: { display: string }) => o.display).sort();
    };

    it('takes device_role alone as role, and serves both with virtual_chassis null', async () => {
      const d = await made(srv, '/api/dcim/devices/', { name: 'd1', site: ids.site, device_role: ids.leaf });
      expect(d.role.id).to.equal(ids.leaf);
      expect(d.device_role).to.deep.equal(d.role);
      expect(d).to.have.property('virtual_chassis', null);
      const got = await srv.req('GET', `/api/dcim/devices/${d.id}/`);
      expect(got.body.device_role.slug).to.equal('leaf');
      expect(got.body.virtual_chassis).to.equal(null);
    });

    it('lets role win when both are given, on POST, PUT and PATCH', async () => {
      const d = await made(srv, '/api/dcim/devices/', {
        name: 'd2',
        site: ids.site,
        role: ids.spine,
        device_role: ids.leaf,
      });
      expect(d.role.id).to.equal(ids.spine);
      const patched = await srv.req('PATCH', `/api/dcim/devices/${d.id}/`, { device_role: ids.leaf });
      expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
      expect(patched.body.role.id).to.equal(ids.leaf);
      const both = await srv.req('PATCH', `/api/dcim/devices/${d.id}/`, { role: ids.spine, device_role: ids.leaf });
      expect(both.body.role.id).to.equal(ids.spine);
      const put = await srv.req('PUT', `/api/dcim/devices/${d.id}/`, {
        name: 'd2',
        site: ids.site,
        device_role: { slug: 'leaf' },
      });
      expect(put.status, JSON.stringify(put.body)).to.equal(200);
      expect(put.body.device_role.id).to.equal(ids.leaf);
    });

    it('takes device_role in bulk writes, and a read object written back as it was', async () => {
      const r = await srv.req('POST', '/api/dcim/devices/', [
        { name: 'b1', site: ids.site, device_role: ids.spine },
        { name: 'b2', site: ids.site, device_role: ids.spine },
      ]);
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      expect(r.body.map((d: any) => d.role.slug)).to.deep.equal(['spine', 'spine']);
      const bulk = await srv.req(
        'PATCH',
        '/api/dcim/devices/',
        r.body.map((d: any) => ({ id: d.id, device_role: ids.leaf })),
      );
      expect(bulk.status, JSON.stringify(bulk.body)).to.equal(200);
      expect(bulk.body.map((d: any) => d.role.slug)).to.deep.equal(['leaf', 'leaf']);
      // What a client read, written back: device_role as read (nested) and virtual_chassis (ignored).
      const { device_role, virtual_chassis } = bulk.body[0];
      const back = await srv.req('PATCH', `/api/dcim/devices/${bulk.body[0].id}/`, { device_role, virtual_chassis });
      expect(back.status, JSON.stringify(back.body)).to.equal(200);
    });

    it('filters device_role and device_role_id as role and role_id', async () => {
      await made(srv, '/api/dcim/devices/', { name: 'f-leaf', site: ids.site, role: ids.leaf });
      await made(srv, '/api/dcim/devices/', { name: 'f-none', site: ids.site });
      const byRole = await names('/api/dcim/devices/?role=leaf');
      expect(await names('/api/dcim/devices/?device_role=leaf'))
        .to.deep.equal(byRole)
        .and.include('f-leaf');
      expect(await names(`/api/dcim/devices/?device_role_id=${ids.leaf}`)).to.deep.equal(byRole);
      expect(await names('/api/dcim/devices/?device_role__n=leaf')).to.deep.equal(
        await names('/api/dcim/devices/?role__n=leaf'),
      );
      expect(await names('/api/dcim/devices/?device_role=null')).to.deep.equal(['f-none']);
    });

    it('narrows answers to device_role or virtual_chassis with fields=', async () => {
      const r = await srv.req('GET', '/api/dcim/devices/?fields=device_role,virtual_chassis&name=d1');
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(Object.keys(r.body.results[0]).sort()).to.deep.equal(['device_role', 'id', 'url', 'virtual_chassis']);
      expect(r.body.results[0].device_role.slug).to.equal('leaf');
    });

    it('refuses a bad device_role and serves no alias on virtual machines', async () => {
      const bad = await srv.req('POST', '/api/dcim/devices/', { name: 'x', site: ids.site, device_role: 'nope' });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.have.property('role');
      const vm = await srv.req('POST', '/api/virtualization/virtual-machines/', { name: 'vm', device_role: ids.leaf });
      expect(vm.status).to.equal(400);
      expect(vm.body.device_role).to.deep.equal(['Unknown field.']);
    });
  });
}
