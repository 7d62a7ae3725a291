// POST /api/users/tokens/provision/ (issue #39): username and password -> a token of that user;
// wrong credentials a 403 that costs no less time than a right login; failed tries slowed per user
// and per address with a bounded table; two provisions and password changes at once both land.
import { expect } from 'chai';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/backend-server.js';
import { LoginThrottle } from '../../app/login-throttle.js';
import { checkPassword, hashPassword } from '../../app/passwords.js';

const PATH = '/api/users/tokens/provision/';

for (const backend of BACKENDS)
  describe(`token provisioning (${backend.name})`, function () {
    this.timeout(120_000);
    const h = serverOn(backend);

    it('turns a username and password into a token of the user, key shown once; a wrong one is a 403', async () => {
      const srv = h.srv;
      const u = await srv.req('POST', '/api/users/users/', { username: 'erin', password: 'erin-password' });
      expect(u.status).to.equal(201);
      const t = await srv.req('POST', PATH, { username: 'erin', password: 'erin-password', description: 'cli' }, null);
      expect(t.status, JSON.stringify(t.body)).to.equal(201);
      expect(t.body).to.include({ description: 'cli', write_enabled: true });
      expect(t.body.key).to.match(/^[0-9a-f]{40}$/);
      expect(t.body.user.username).to.equal('erin');
      const one = await srv.req('GET', `/api/users/tokens/${t.body.id}/`);
      expect(one.body).to.not.have.property('key');
      expect((await srv.req('GET', `/api/users/users/${u.body.id}/`)).body.last_login).to.be.a('string');
      for (const body of [
        { username: 'erin', password: 'wrong' },
        { username: 'nobody', password: 'erin-password' },
      ]) {
        const bad = await srv.req('POST', PATH, body, null);
        expect(bad.status).to.equal(403);
        expect(bad.body).to.deep.equal({ detail: 'Invalid username/password' });
      }
      const missing = await srv.req('POST', PATH, { username: 'erin' }, null);
      expect(missing.status).to.equal(400);
      expect(missing.body).to.have.property('password');
      // write_enabled false: the token reads what its user may read and writes nothing.
      await srv.req('POST', '/api/users/permissions/', {
        name: 'erin sites',
        object_types: ['dcim.site'],
        actions: ['view', 'add'],
        users: [u.body.id],
      });
      const ro = await srv.req(
        'POST',
        PATH,
        { username: 'erin', password: 'erin-password', write_enabled: false },
        null,
      );
      const rw = await srv.req('POST', PATH, { username: 'erin', password: 'erin-password' }, null);
      expect((await srv.req('GET', '/api/dcim/sites/', undefined, ro.body.key)).status).to.equal(200);
      expect((await srv.req('POST', '/api/dcim/sites/', { name: 'e', slug: 'e' }, ro.body.key)).status).to.equal(403);
      expect((await srv.req('POST', '/api/dcim/sites/', { name: 'e', slug: 'e' }, rw.body.key)).status).to.equal(201);
      // A token cannot be made already expired (NetBox's rule), but may be cut short: then it is refused.
      const past = { username: 'erin', password: 'erin-password', expires: '2001-01-01T00:00:00Z' };
      const refused = await srv.req('POST', PATH, past, null);
      expect(refused.status).to.equal(400);
      expect(refused.body).to.have.property('expires');
      await srv.req('PATCH', `/api/users/tokens/${rw.body.id}/`, { expires: '2001-01-01T00:00:00Z' });
      expect((await srv.req('GET', '/api/dcim/sites/', undefined, rw.body.key)).status).to.equal(401);
    });

    it('two provisions and two changes of a user at once: every acknowledged one is there', async () => {
      const srv = h.srv;
      const u = await srv.req('POST', '/api/users/users/', { username: 'frank', password: 'frank-1' });
      for (let round = 0; round < 3; round++) {
        const [a, b, c, d] = await Promise.all([
          srv.req('POST', PATH, { username: 'frank', password: 'frank-1' }, null),
          srv.req('POST', PATH, { username: 'frank', password: 'frank-1' }, null),
          srv.req('PATCH', `/api/users/users/${u.body.id}/`, { first_name: `F${round}` }),
          srv.req('PATCH', `/api/users/users/${u.body.id}/`, { email: `f${round}@example.com` }),
        ]);
        for (const r of [a, b]) expect(r.status, JSON.stringify(r.body)).to.equal(201);
        for (const r of [c, d]) expect(r.status, JSON.stringify(r.body)).to.equal(200);
        expect(a.body.key).to.not.equal(b.body.key);
        for (const r of [a, b]) expect((await srv.req('GET', `/api/users/tokens/${r.body.id}/`)).status).to.equal(200);
        const now = (await srv.req('GET', `/api/users/users/${u.body.id}/`)).body;
        expect(now).to.include({ first_name: `F${round}`, email: `f${round}@example.com` });
      }
      // A password change racing a change of another field: both land, the new password works.
      const [p, q] = await Promise.all([
        srv.req('PATCH', `/api/users/users/${u.body.id}/`, { password: 'frank-2' }),
        srv.req('PATCH', `/api/users/users/${u.body.id}/`, { last_name: 'Last' }),
      ]);
      expect([p.status, q.status]).to.deep.equal([200, 200]);
      expect((await srv.req('GET', `/api/users/users/${u.body.id}/`)).body.last_name).to.equal('Last');
      expect((await srv.req('POST', PATH, { username: 'frank', password: 'frank-2' }, null)).status).to.equal(201);
    });
  });

describe('login slowing and password hashes', () => {
  it('after three failures a user or an address waits, doubling; a success clears; the table is bounded', () => {
    let now = 0;
    const t = new LoginThrottle(() => now);
    for (let i = 0; i < 3; i++) t.failed('alice', '10.0.0.1');
    expect(t.wait('alice', '10.0.0.9')).to.equal(0);
    t.failed('alice', '10.0.0.1');
    expect(t.wait('alice', '10.0.0.9')).to.equal(1000); // by user, from any address
    expect(t.wait('bob', '10.0.0.1')).to.equal(1000); // by address, for any user
    t.failed('alice', '10.0.0.1');
    expect(t.wait('alice', '10.0.0.1')).to.equal(2000);
    now += 2000;
    t.succeeded('alice', '10.0.0.1');
    expect(t.wait('alice', '10.0.0.1')).to.equal(0);
    for (let i = 0; i < 30_000; i++) t.failed(`user${i}`, `10.1.${i >> 8}.${i & 255}`);
    expect(t.size).to.be.at.most(10_000);
  });

  it('hashes are salted scrypt; a wrong password or an unknown user costs no less than a right one', async function () {
    this.timeout(60_000);
    const a = await hashPassword('same'),
      b = await hashPassword('same');
    expect(a).to.match(/^scrypt\$/);
    expect(a).to.not.equal(b);
    expect(await checkPassword('same', a)).to.equal(true);
    expect(await checkPassword('other', a)).to.equal(false);
    expect(await checkPassword('same', null)).to.equal(false);
    const time = async (f: () => Promise<unknown>) => {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < 5; i++) await f();
      return Number(process.hrtime.bigint() - t0) / 5e6;
    };
    const right = await time(() => checkPassword('same', a));
    const wrong = await time(() => checkPassword('other', a));
    const unknown = await time(() => checkPassword('same', undefined));
    expect(wrong).to.be.above(right * 0.6);
    expect(unknown).to.be.above(right * 0.6);
  });
});
