// Users, groups and object permissions (issue #39 points 1-2) on every backend: NetBox's shapes,
// passwords never served nor logged, tokens that carry their user's permissions, which change as
// soon as a permission, a group or the user changes.
import { expect } from 'chai';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/backend-server.js';

for (const backend of BACKENDS)
  for (const idStyle of ['uuid', 'integer'])
    describe(`users, groups and object permissions (${backend.name}, ${idStyle} ids)`, function () {
      this.timeout(120_000);
      const h = serverOn(backend, { idStyle });

      it('creates users, groups and permissions in NetBox shapes; a password is never served nor logged', async () => {
        const srv = h.srv;
        const g = await srv.req('POST', '/api/users/groups/', { name: 'ams-team', description: 'Amsterdam' });
        expect(g.status, JSON.stringify(g.body)).to.equal(201);
        const u = await srv.req('POST', '/api/users/users/', {
          username: 'alice',
          password: 'correct horse battery',
          email: 'alice@example.com',
          groups: [g.body.id],
        });
        expect(u.status, JSON.stringify(u.body)).to.equal(201);
        expect(u.body).to.include({
          username: 'alice',
          email: 'alice@example.com',
          is_active: true,
          is_superuser: false,
        });
        expect(u.body).to.not.have.property('password');
        expect(u.body.groups.map((x: { id: unknown }) => x.id)).to.deep.equal([g.body.id]);
        const p = await srv.req('POST', '/api/users/permissions/', {
          name: 'ams sites',
          object_types: ['dcim.rack', 'dcim.device'],
          actions: ['view', 'change'],
          constraints: { site__slug: 'ams01' },
          groups: [g.body.id],
        });
        expect(p.status, JSON.stringify(p.body)).to.equal(201);
        expect(p.body).to.include({ name: 'ams sites', enabled: true });
        expect(p.body.constraints).to.deep.equal({ site__slug: 'ams01' });
        expect(p.body.groups[0]).to.include({ id: g.body.id, name: 'ams-team' });

        const read = await srv.req('GET', `/api/users/users/${u.body.id}/`);
        expect(read.body.permissions).to.deep.equal([]);
        const group = await srv.req('GET', `/api/users/groups/${g.body.id}/`);
        expect(group.body.user_count).to.equal(1);
        expect(group.body.users[0]).to.include({ username: 'alice' });
        expect(group.body.permissions[0]).to.include({ name: 'ams sites' });
        const list = await srv.req('GET', '/api/users/users/?username=alice');
        expect(list.body.count).to.equal(1);
        expect(JSON.stringify(list.body)).to.not.include('scrypt');

        const pw = await srv.req('PATCH', `/api/users/users/${u.body.id}/`, { password: 'another secret' });
        expect(pw.status).to.equal(200);
        const log = await srv.req('GET', '/api/extras/object-changes/?limit=1000');
        const text = JSON.stringify(log.body);
        expect(text).to.include('alice');
        expect(text).to.not.include('scrypt');
        expect(text).to.not.include('another secret');
        expect(text).to.not.include('correct horse');
      });

      it('refuses bad input naming the field', async () => {
        const srv = h.srv;
        const dup = await srv.req('POST', '/api/users/users/', { username: 'alice' });
        expect(dup.status).to.equal(400);
        expect(dup.body).to.have.property('username');
        const badType = await srv.req('POST', '/api/users/permissions/', {
          name: 'x',
          object_types: ['dcim.nosuch'],
          actions: ['view'],
        });
        expect(badType.status).to.equal(400);
        expect(badType.body).to.have.property('object_types');
        const badC = await srv.req('POST', '/api/users/permissions/', {
          name: 'x',
          object_types: ['dcim.site'],
          actions: ['view'],
          constraints: 'site',
        });
        expect(badC.status).to.equal(400);
        expect(badC.body).to.have.property('constraints');
        // Each path is checked against every object type, by the translator the reads use.
        const badPath = await srv.req('POST', '/api/users/permissions/', {
          name: 'x',
          object_types: ['dcim.device', 'dcim.site'],
          actions: ['view'],
          constraints: [{ tenant__grop__slug: 'a' }, { site__slug: 'ams01' }],
        });
        expect(badPath.status).to.equal(400);
        expect(badPath.body.constraints).to.deep.equal([
          'dcim.device: [0].tenant__grop__slug: unknown field "grop" on tenant',
          'dcim.site: [0].tenant__grop__slug: unknown field "grop" on tenant',
          'dcim.site: [1].site__slug: unknown field "site" on site',
        ]);
        const user = await srv.req('POST', '/api/users/permissions/', {
          name: 'own devices',
          object_types: ['dcim.device'],
          actions: ['view'],
          constraints: { tenant__group__slug: 'a', status__in: ['active', 'planned'] },
        });
        expect(user.status, JSON.stringify(user.body)).to.equal(201);
        // NetBox's spelling of a model (no underscores) names the same object type, kept in the product's.
        const netboxNames = await srv.req('POST', '/api/users/permissions/', {
          name: 'netbox spelling',
          object_types: ['ipam.ipaddress', 'users.objectpermission', 'ipam.ip_address'],
          actions: ['view'],
        });
        expect(netboxNames.status, JSON.stringify(netboxNames.body)).to.equal(201);
        expect(netboxNames.body.object_types).to.deep.equal(['ipam.ip_address', 'users.object_permission']);
        const badGroup = await srv.req('POST', '/api/users/users/', { username: 'bob', groups: ['nope'] });
        expect(badGroup.status).to.equal(400);
        expect(badGroup.body).to.have.property('groups');
      });

      it('a constrained view shows only its objects; a constrained change changes only those', async () => {
        const srv = h.srv;
        const u = await srv.req('POST', '/api/users/users/', { username: 'dave', password: 'dave-password' });
        const prov = await srv.req(
          'POST',
          '/api/users/tokens/provision/',
          { username: 'dave', password: 'dave-password' },
          null,
        );
        const key = prov.body.key as string;
        for (const slug of ['ams01', 'fra01'])
          expect((await srv.req('POST', '/api/dcim/sites/', { name: slug, slug })).status).to.equal(201);
        const limited = await srv.req('POST', '/api/users/permissions/', {
          name: 'ams sites only',
          object_types: ['dcim.site'],
          actions: ['view', 'change'],
          constraints: { slug: 'ams01' },
          users: [u.body.id],
        });
        expect(limited.status, JSON.stringify(limited.body)).to.equal(201);
        const seen = await srv.req('GET', '/api/dcim/sites/', undefined, key);
        expect(seen.status).to.equal(200);
        expect(seen.body.results.map((s: { slug: string }) => s.slug)).to.deep.equal(['ams01']);
        const ams = seen.body.results[0].id;
        expect((await srv.req('PATCH', `/api/dcim/sites/${ams}/`, { description: 'x' }, key)).status).to.equal(200);
        // fra01 lies outside both: absent (404), not forbidden, and unchanged.
        const fra = (await srv.req('GET', '/api/dcim/sites/?slug=fra01')).body.results[0];
        expect((await srv.req('PATCH', `/api/dcim/sites/${fra.id}/`, { description: 'x' }, key)).status).to.equal(404);
        expect((await srv.req('GET', `/api/dcim/sites/${fra.id}/`)).body.description).to.equal(fra.description);
        const open = await srv.req('POST', '/api/users/permissions/', {
          name: 'all sites',
          object_types: ['dcim.site'],
          actions: ['view'],
          users: [u.body.id],
        });
        expect(open.status).to.equal(201);
        expect((await srv.req('GET', '/api/dcim/sites/', undefined, key)).body.count).to.equal(2);
      });

      it('a token carries its user’s permissions, seen at once when a permission, group or user changes', async () => {
        const srv = h.srv;
        const u = await srv.req('POST', '/api/users/users/', { username: 'carol', password: 'carol-password' });
        const prov = await srv.req(
          'POST',
          '/api/users/tokens/provision/',
          { username: 'carol', password: 'carol-password' },
          null,
        );
        expect(prov.status, JSON.stringify(prov.body)).to.equal(201);
        const key = prov.body.key as string;
        expect(prov.body.user).to.include({ id: u.body.id, username: 'carol' });
        expect((await srv.req('GET', '/api/dcim/sites/', undefined, key)).status).to.equal(403);
        const g = await srv.req('POST', '/api/users/groups/', { name: 'readers' });
        const p = await srv.req('POST', '/api/users/permissions/', {
          name: 'read sites',
          object_types: ['dcim.site'],
          actions: ['view'],
          groups: [g.body.id],
        });
        expect(p.status).to.equal(201);
        expect((await srv.req('GET', '/api/dcim/sites/', undefined, key)).status).to.equal(403);
        await srv.req('PATCH', `/api/users/users/${u.body.id}/`, { groups: [g.body.id] });
        expect((await srv.req('GET', '/api/dcim/sites/', undefined, key)).status).to.equal(200);
        expect((await srv.req('POST', '/api/dcim/sites/', { name: 'c', slug: 'c' }, key)).status).to.equal(403);
        await srv.req('PATCH', `/api/users/permissions/${p.body.id}/`, { enabled: false });
        expect((await srv.req('GET', '/api/dcim/sites/', undefined, key)).status).to.equal(403);
        await srv.req('PATCH', `/api/users/permissions/${p.body.id}/`, { enabled: true });
        expect((await srv.req('GET', '/api/dcim/sites/', undefined, key)).status).to.equal(200);
        await srv.req('PATCH', `/api/users/users/${u.body.id}/`, { is_active: false });
        expect((await srv.req('GET', '/api/dcim/sites/', undefined, key)).status).to.equal(401);
        await srv.req('PATCH', `/api/users/users/${u.body.id}/`, { is_active: true });
        await srv.req('DELETE', `/api/users/groups/${g.body.id}/`);
        expect((await srv.req('GET', '/api/dcim/sites/', undefined, key)).status).to.equal(403);
        expect((await srv.req('GET', `/api/users/users/${u.body.id}/`)).body.groups).to.deep.equal([]);
        expect((await srv.req('GET', `/api/users/permissions/${p.body.id}/`)).body.groups).to.deep.equal([]);
        await srv.req('DELETE', `/api/users/users/${u.body.id}/`);
        expect((await srv.req('GET', '/api/dcim/sites/', undefined, key)).status).to.equal(401);
      });

      it('only a superuser makes superusers; the users app needs users.* permissions', async () => {
        const srv = h.srv;
        await srv.req('POST', '/api/users/users/', { username: 'dave', password: 'dave-password' });
        const prov = await srv.req(
          'POST',
          '/api/users/tokens/provision/',
          { username: 'dave', password: 'dave-password' },
          null,
        );
        const key = prov.body.key as string;
        expect((await srv.req('GET', '/api/users/users/', undefined, key)).status).to.equal(403);
        const dave = (await srv.req('GET', '/api/users/users/?username=dave')).body.results[0];
        await srv.req('POST', '/api/users/permissions/', {
          name: 'user admin',
          object_types: ['users.user'],
          actions: ['view', 'add', 'change'],
          users: [dave.id],
        });
        expect((await srv.req('GET', '/api/users/users/', undefined, key)).status).to.equal(200);
        const up = await srv.req('PATCH', `/api/users/users/${dave.id}/`, { is_superuser: true }, key);
        expect(up.status).to.equal(400);
        expect(up.body).to.have.property('is_superuser');
        expect((await srv.req('GET', `/api/users/users/${dave.id}/`)).body.is_superuser).to.equal(false);
      });
    });
