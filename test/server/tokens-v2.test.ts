// NetBox 4.5's tokens (issue #39 point 3) on every backend: v2 keys stored as an HMAC with a pepper,
// the fields NetBox has (allowed_ips, enabled, last_used, ...), the client address behind a trusted
// proxy, /api/authentication-check/, what a token change may not touch, and no way to raise one's
// own rights through a token, a user, or a permission.
import { expect } from 'chai';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/backend-server.js';
import { startServer, type TestServer } from '../support/server.js';
import { digestOf, hashKey } from '../../app/token-keys.js';
import { authority } from '../../storage/replica/replicated-storage.js';

const PEPPER = 'pepper-'.repeat(8); // 56 characters
const TOKENS = '/api/users/tokens/';
const CHECK = '/api/authentication-check/';

/** A request with `Authorization: Bearer <key>` and, optionally, an X-Forwarded-For. */
const bearer = (srv: TestServer, method: string, path: string, key: string, body?: unknown, xff?: string) =>
  srv.req(method, path, body, null, { Authorization: `Bearer ${key}`, ...(xff ? { 'X-Forwarded-For': xff } : {}) });

/** A user holding `perms` ([object_types, actions] pairs, unconstrained) and a v1 token of theirs (provisioned). */
async function userWith(srv: TestServer, name: string, perms: [string[], string[], unknown?][] = []) {
  const u = await srv.req('POST', '/api/users/users/', { username: name, password: `${name}-password` });
  expect(u.status, JSON.stringify(u.body)).to.equal(201);
  for (const [i, [object_types, actions, constraints]] of perms.entries()) {
    const p = await srv.req('POST', '/api/users/permissions/', {
      name: `${name}-${i}`,
      object_types,
      actions,
      constraints: constraints ?? null,
      users: [u.body.id],
    });
    expect(p.status, JSON.stringify(p.body)).to.equal(201);
  }
  const t = await srv.req('POST', TOKENS, { user: u.body.id, version: 1 });
  expect(t.status, JSON.stringify(t.body)).to.equal(201);
  return { id: u.body.id, key: t.body.key as string };
}

for (const backend of BACKENDS)
  for (const idStyle of ['uuid', 'integer'])
    describe(`NetBox 4.5 tokens (${backend.name}, ${idStyle} ids)`, function () {
      this.timeout(120_000);
      const h = serverOn(backend, { idStyle, apiTokenPeppers: { '3': PEPPER }, trustedProxies: '127.0.0.1, ::1' });

      it('v2: Bearer nbt_<key>.<token>, stored as key id, pepper id and HMAC; the plaintext shown once', async () => {
        const srv = h.srv;
        const u = await userWith(srv, 'v2user', [[['dcim.site'], ['view']]]);
        const made = await srv.req('POST', TOKENS, { user: u.id, description: 'ci' });
        expect(made.status, JSON.stringify(made.body)).to.equal(201);
        expect(made.body).to.include({ version: 2, pepper_id: 3, description: 'ci', enabled: true });
        expect(made.body.key).to.match(/^[A-Za-z0-9]{12}$/);
        expect(made.body.token).to.match(/^[A-Za-z0-9]{40}$/);
        const plain = `nbt_${made.body.key}.${made.body.token}`;
        expect((await bearer(srv, 'GET', '/api/dcim/sites/', plain)).status).to.equal(200);
        expect((await srv.req('GET', '/api/dcim/sites/', undefined, plain)).status).to.equal(200); // Token nbt_… too
        const wrong = `nbt_${made.body.key}.${'x'.repeat(40)}`;
        expect((await bearer(srv, 'GET', '/api/dcim/sites/', wrong)).status).to.equal(401);
        // Never retrievable: not in the token's answer, nor in the store (only its HMAC under the pepper).
        const read = await srv.req('GET', `${TOKENS}${made.body.id}/`);
        expect(read.body).to.include({ key: made.body.key, version: 2 });
        expect(read.body).to.not.have.property('token');
        expect(JSON.stringify((await srv.req('GET', TOKENS)).body)).to.not.include(made.body.token);
        const [row] = await authority(srv.running.ctx.storage).findBy('token', 'key_id', made.body.key);
        expect(JSON.stringify(row)).to.not.include(made.body.token);
        expect(row.key_hash).to.equal(digestOf(PEPPER, made.body.token));
        // version 1 on request: a 40-hex key, `Token <key>`, kept working beside v2.
        const v1 = await srv.req('POST', TOKENS, { user: u.id, version: 1 });
        expect(v1.body).to.include({ version: 1, key: v1.body.token });
        expect(v1.body.key).to.match(/^[0-9a-f]{40}$/);
        expect((await srv.req('GET', '/api/dcim/sites/', undefined, v1.body.key)).status).to.equal(200);
        const [v1row] = await authority(srv.running.ctx.storage).findBy('token', 'key_hash', hashKey(v1.body.key));
        expect(String(v1row.id)).to.equal(String(v1.body.id));
        const v1read = (await srv.req('GET', `${TOKENS}${v1.body.id}/`)).body;
        expect(v1read).to.include({ version: 1 });
        expect(v1read).to.not.have.property('key');
        const bad = await srv.req('POST', TOKENS, { user: u.id, version: 3 });
        expect(bad.status).to.equal(400);
        expect(bad.body).to.have.property('version');
        // Provisioning by password makes v2 tokens too.
        const prov = await srv.req(
          'POST',
          `${TOKENS}provision/`,
          { username: 'v2user', password: 'v2user-password' },
          null,
        );
        expect(prov.body.version).to.equal(2);
        expect((await bearer(srv, 'GET', CHECK, `nbt_${prov.body.key}.${prov.body.token}`)).status).to.equal(200);
      });

      it('fields: allowed_ips checked, enabled, expires, write_enabled; 401 unknown, expired, disabled', async () => {
        const srv = h.srv;
        const u = await userWith(srv, 'fields', [[['dcim.site'], ['view', 'add']]]);
        for (const allowed_ips of [['10.0.0.0/33'], 'nope', ['host.example']]) {
          const r = await srv.req('POST', TOKENS, { user: u.id, allowed_ips });
          expect(r.status, JSON.stringify(allowed_ips)).to.equal(400);
          expect(r.body).to.have.property('allowed_ips');
        }
        const t = await srv.req('POST', TOKENS, { user: u.id, allowed_ips: ['127.0.0.1', '10.1.2.3/16', '::1'] });
        expect(t.body.allowed_ips).to.deep.equal(['127.0.0.1/32', '10.1.0.0/16', '::1/128']);
        const key = `nbt_${t.body.key}.${t.body.token}`;
        expect((await bearer(srv, 'POST', '/api/dcim/sites/', key, { name: 'f1', slug: 'f1' })).status).to.equal(201);
        const ro = await srv.req('POST', TOKENS, { user: u.id, write_enabled: false });
        const roKey = `nbt_${ro.body.key}.${ro.body.token}`;
        expect((await bearer(srv, 'GET', '/api/dcim/sites/', roKey)).status).to.equal(200);
        expect((await bearer(srv, 'POST', '/api/dcim/sites/', roKey, { name: 'f2', slug: 'f2' })).status).to.equal(403);
        expect((await bearer(srv, 'GET', '/api/dcim/sites/', 'nbt_AAAAAAAAAAAA.BBBB')).status).to.equal(401);
        expect((await srv.req('PATCH', `${TOKENS}${t.body.id}/`, { enabled: false })).body.enabled).to.equal(false);
        expect((await bearer(srv, 'GET', '/api/dcim/sites/', key)).status).to.equal(401);
        expect((await srv.req('PATCH', `${TOKENS}${t.body.id}/`, { enabled: true })).status).to.equal(200);
        expect((await bearer(srv, 'GET', '/api/dcim/sites/', key)).status).to.equal(200);
        const soon = new Date(Date.now() + 1500).toISOString();
        expect((await srv.req('PATCH', `${TOKENS}${t.body.id}/`, { expires: soon })).status).to.equal(200);
        expect((await bearer(srv, 'GET', '/api/dcim/sites/', key)).status).to.equal(200);
        await new Promise((r) => setTimeout(r, 1600));
        expect((await bearer(srv, 'GET', '/api/dcim/sites/', key)).status).to.equal(401);
      });

      it('last_used is written once a minute at most, without a change record', async () => {
        const srv = h.srv;
        const u = await userWith(srv, 'used', [[['dcim.site'], ['view']]]);
        const t = await srv.req('POST', TOKENS, { user: u.id });
        expect(t.body.last_used).to.equal(null);
        const key = `nbt_${t.body.key}.${t.body.token}`;
        const changes = async () => (await srv.req('GET', '/api/extras/object-changes/?limit=1')).body.count as number;
        const logged = await changes();
        for (let i = 0; i < 20; i++) expect((await bearer(srv, 'GET', '/api/dcim/sites/', key)).status).to.equal(200);
        let first: string | null = null;
        for (let i = 0; i < 50 && !first; i++) {
          first = (await srv.req('GET', `${TOKENS}${t.body.id}/`)).body.last_used;
          if (!first) await new Promise((r) => setTimeout(r, 20));
        }
        expect(first).to.be.a('string');
        for (let i = 0; i < 20; i++) await bearer(srv, 'GET', '/api/dcim/sites/', key);
        await new Promise((r) => setTimeout(r, 100));
        expect((await srv.req('GET', `${TOKENS}${t.body.id}/`)).body.last_used).to.equal(first);
        expect(await changes()).to.equal(logged);
      });

      it('the last_used note never undoes a change made at the same moment (a disable stays)', async () => {
        const srv = h.srv;
        const u = await userWith(srv, 'racer', [[['dcim.site'], ['view']]]);
        for (let round = 0; round < 5; round++) {
          const t = await srv.req('POST', TOKENS, { user: u.id });
          const key = `nbt_${t.body.key}.${t.body.token}`;
          const [, off] = await Promise.all([
            bearer(srv, 'GET', '/api/dcim/sites/', key), // its first use: last_used is written after it
            srv.req('PATCH', `${TOKENS}${t.body.id}/`, { enabled: false }),
          ]);
          expect(off.status, JSON.stringify(off.body)).to.equal(200);
          await new Promise((r) => setTimeout(r, 50));
          expect((await srv.req('GET', `${TOKENS}${t.body.id}/`)).body.enabled).to.equal(false);
          expect((await bearer(srv, 'GET', '/api/dcim/sites/', key)).status).to.equal(401);
        }
      });

      it('allowed_ips: the client is the socket peer, or behind a trusted proxy the last untrusted hop', async () => {
        const srv = h.srv;
        const u = await userWith(srv, 'proxied', [[['dcim.site'], ['view']]]);
        const t = await srv.req('POST', TOKENS, { user: u.id, allowed_ips: ['192.0.2.0/24'] });
        const key = `nbt_${t.body.key}.${t.body.token}`;
        // The test's socket is 127.0.0.1, a trusted proxy here: X-Forwarded-For says who the client is.
        expect((await bearer(srv, 'GET', '/api/dcim/sites/', key)).status).to.equal(403);
        expect((await bearer(srv, 'GET', '/api/dcim/sites/', key, undefined, '192.0.2.7')).status).to.equal(200);
        expect((await bearer(srv, 'GET', '/api/dcim/sites/', key, undefined, '198.51.100.1')).status).to.equal(403);
        // A client writing an allowed address first gains nothing: the last untrusted hop is the client.
        const spoofed = await bearer(srv, 'GET', '/api/dcim/sites/', key, undefined, '192.0.2.7, 198.51.100.1');
        expect(spoofed.status).to.equal(403);
        expect(spoofed.body.detail).to.include('198.51.100.1');
        expect(
          (await bearer(srv, 'GET', '/api/dcim/sites/', key, undefined, '198.51.100.1, 192.0.2.7')).status,
        ).to.equal(200);
        expect((await bearer(srv, 'GET', '/api/dcim/sites/', key, undefined, '192.0.2.7, 127.0.0.1')).status).to.equal(
          200,
        );
        // The same token, same path, another address: decided per request (the principal stays cached).
        expect((await bearer(srv, 'GET', CHECK, key, undefined, '203.0.113.9')).status).to.equal(403);
        expect((await bearer(srv, 'GET', CHECK, key, undefined, '192.0.2.8')).status).to.equal(200);
      });

      it('/api/authentication-check/ answers the token’s user (NetBox’s), 401 without a token', async () => {
        const srv = h.srv;
        const u = await userWith(srv, 'checker');
        const ok = await srv.req('GET', CHECK, undefined, u.key);
        expect(ok.status).to.equal(200);
        expect(ok.body).to.include({ id: u.id, username: 'checker', is_superuser: false, is_active: true });
        expect(ok.body).to.have.property('url').that.includes(`/api/users/users/${u.id}/`);
        expect(ok.body).to.not.have.property('password');
        expect((await srv.req('GET', CHECK, undefined, null)).status).to.equal(401);
        expect((await srv.req('GET', CHECK, undefined, 'no-such-key')).status).to.equal(401);
      });

      it('after creation user, write_enabled, allowed_ips and key are fixed; expires only earlier', async () => {
        const srv = h.srv;
        const u = await userWith(srv, 'fixed', [[['dcim.site'], ['view']]]);
        const other = await userWith(srv, 'other');
        const until = new Date(Date.now() + 86_400_000).toISOString();
        const t = await srv.req('POST', TOKENS, {
          user: u.id,
          write_enabled: false,
          allowed_ips: ['::/0'],
          expires: until,
        });
        const path = `${TOKENS}${t.body.id}/`;
        for (const [field, value] of [
          ['user', other.id],
          ['write_enabled', true],
          ['allowed_ips', ['0.0.0.0/0']],
          ['allowed_ips', []],
          ['key', 'AAAAAAAAAAAA'],
          ['version', 1],
        ] as const) {
          const r = await srv.req('PATCH', path, { [field]: value });
          expect(r.status, `${field}: ${JSON.stringify(r.body)}`).to.equal(400);
          expect(r.body).to.have.property(field);
        }
        const later = await srv.req('PATCH', path, { expires: new Date(Date.now() + 2 * 86_400_000).toISOString() });
        expect(later.status).to.equal(400);
        expect(later.body).to.have.property('expires');
        expect((await srv.req('PATCH', path, { expires: null })).status).to.equal(400);
        const now = await srv.req('GET', path);
        expect(now.body).to.include({ write_enabled: false });
        expect(Date.parse(now.body.expires)).to.equal(Date.parse(until));
        expect(now.body.user.id).to.equal(u.id);
        // What may change, changes; the answer sent back whole (PUT) is accepted as it is.
        const earlier = new Date(Date.now() + 3_600_000).toISOString();
        const ok = await srv.req('PATCH', path, { description: 'renamed', enabled: false, expires: earlier });
        expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
        expect(ok.body).to.include({ description: 'renamed', enabled: false });
        expect(Date.parse(ok.body.expires)).to.equal(Date.parse(earlier));
        const put = await srv.req('PUT', path, { ...ok.body, description: 'again' });
        expect(put.status, JSON.stringify(put.body)).to.equal(200);
        expect(put.body).to.include({ description: 'again', write_enabled: false, expires: ok.body.expires });
      });

      it('nobody raises their own rights: tokens for others, old-form lists, users, groups, permissions', async () => {
        const srv = h.srv;
        const bob = await userWith(srv, 'bob', [[['dcim.site'], ['view', 'add', 'change', 'delete']]]);
        const mallory = await userWith(srv, 'mallory', [
          [['users.token'], ['view', 'add', 'change']],
          [['users.user'], ['view', 'change']],
          [['users.object_permission'], ['view', 'add', 'change']],
          [['dcim.site'], ['view']],
          [['dcim.device'], ['view'], { name: 'own' }],
        ]);
        const m = mallory.key;
        // A token for another user: only with users.grant_token.
        const forBob = await srv.req('POST', TOKENS, { user: bob.id }, m);
        expect(forBob.status).to.equal(400);
        expect(forBob.body).to.have.property('user');
        expect((await srv.req('POST', TOKENS, { user: mallory.id }, m)).status).to.equal(201);
        // The old form: no permission the creator lacks.
        const star = await srv.req('POST', TOKENS, { permissions: ['*'] }, m);
        expect(star.status).to.equal(400);
        expect(star.body).to.have.property('permissions');
        // A token's user is fixed: not moved to a more powerful one.
        const own = await srv.req('POST', TOKENS, { user: mallory.id }, m);
        expect((await srv.req('PATCH', `${TOKENS}${own.body.id}/`, { user: bob.id }, m)).status).to.equal(400);
        // Users: not superuser, not into a group holding more.
        expect((await srv.req('PATCH', `/api/users/users/${mallory.id}/`, { is_superuser: true }, m)).status).to.equal(
          400,
        );
        const g = await srv.req('POST', '/api/users/groups/', { name: 'site-admins' });
        await srv.req('POST', '/api/users/permissions/', {
          name: 'site admins',
          object_types: ['dcim.site'],
          actions: ['add', 'change', 'delete'],
          groups: [g.body.id],
        });
        const join = await srv.req('PATCH', `/api/users/users/${mallory.id}/`, { groups: [g.body.id] }, m);
        expect(join.status, JSON.stringify(join.body)).to.equal(403);
        expect(join.body.detail).to.include('dcim.');
        expect((await srv.req('PATCH', `/api/users/users/${bob.id}/`, { groups: [g.body.id] }, m)).status).to.equal(
          200,
        );
        // Permissions: not naming herself, not widening one she holds, not a new one for herself.
        const perms = (await srv.req('GET', '/api/users/permissions/?limit=100')).body.results as any[];
        const bobs = perms.find((p) => p.name === 'bob-0');
        const addSelf = await srv.req(
          'PATCH',
          `/api/users/permissions/${bobs.id}/`,
          { users: [bob.id, mallory.id] },
          m,
        );
        expect(addSelf.status).to.equal(403);
        const held = perms.find((p) => p.name === 'mallory-3');
        const wider = await srv.req('PATCH', `/api/users/permissions/${held.id}/`, { actions: ['view', 'delete'] }, m);
        expect(wider.status).to.equal(403);
        const constrained = perms.find((p) => p.name === 'mallory-4');
        const loose = await srv.req('PATCH', `/api/users/permissions/${constrained.id}/`, { constraints: null }, m);
        expect(loose.status).to.equal(403);
        const created = await srv.req(
          'POST',
          '/api/users/permissions/',
          { name: 'mine', object_types: ['dcim.rack'], actions: ['view'], users: [mallory.id] },
          m,
        );
        expect(created.status).to.equal(403);
        // Nothing of it was written; narrowing her own rights, or granting others, is fine.
        const after = await srv.req('GET', `/api/users/permissions/${bobs.id}/`);
        expect(after.body.users.map((x: { id: unknown }) => x.id)).to.deep.equal([bob.id]);
        expect((await srv.req('GET', `/api/users/users/${mallory.id}/`)).body.groups).to.deep.equal([]);
        expect((await srv.req('PATCH', `/api/users/permissions/${held.id}/`, { actions: [] }, m)).status).to.equal(200);
        const forOthers = await srv.req(
          'POST',
          '/api/users/permissions/',
          { name: 'bobs racks', object_types: ['dcim.rack'], actions: ['view'], users: [bob.id] },
          m,
        );
        expect(forOthers.status, JSON.stringify(forOthers.body)).to.equal(201);
        // users.grant_token: then tokens for others.
        await srv.req('POST', '/api/users/permissions/', {
          name: 'grant',
          object_types: ['users.token'],
          actions: ['grant'],
          users: [mallory.id],
        });
        expect((await srv.req('POST', TOKENS, { user: bob.id }, m)).status).to.equal(201);
      });
    });

describe('NetBox 4.5 tokens without a pepper or a trusted proxy', function () {
  this.timeout(60_000);
  let srv: TestServer;
  before(async () => (srv = await startServer({})));
  after(() => srv.close());

  it('new tokens are v1; version 2 is a 400; X-Forwarded-For from an untrusted peer is ignored', async () => {
    const u = await srv.req('POST', '/api/users/users/', { username: 'plain' });
    const t = await srv.req('POST', TOKENS, { user: u.body.id, allowed_ips: ['127.0.0.0/8', '::1/128'] });
    expect(t.body).to.include({ version: 1 });
    expect((await bearer(srv, 'GET', CHECK, t.body.key, undefined, '192.0.2.1')).status).to.equal(200);
    const v2 = await srv.req('POST', TOKENS, { user: u.body.id, version: 2 });
    expect(v2.status).to.equal(400);
    expect(v2.body).to.have.property('version');
    const far = await srv.req('POST', TOKENS, { user: u.body.id, allowed_ips: ['192.0.2.0/24'] });
    expect((await bearer(srv, 'GET', CHECK, far.body.key, undefined, '192.0.2.1')).status).to.equal(403);
  });
});
