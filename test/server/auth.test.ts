// The 401/403 matrix, token creation (key shown once, stored hashed) and OPTIONS metadata.
import { expect } from 'chai';
import { startServer, type TestServer } from '../support/server.js';

const VIEWER = 'viewer-key-0123456789';

describe('auth and OPTIONS', () => {
  let srv: TestServer;
  before(async () => {
    srv = await startServer({
      tokens: [
        { key: 'admin-key-0123456789', permissions: ['*'] },
        { key: VIEWER, permissions: ['dcim.view_site'] },
      ],
    });
  });
  after(() => srv.close());

  it('no token -> 401 with WWW-Authenticate: Token', async () => {
    const res = await srv.req('GET', '/api/dcim/sites/', undefined, null);
    expect(res.status).to.equal(401);
    expect(res.headers.get('www-authenticate')).to.equal('Token');
  });

  it('unknown token -> 401', async () => {
    expect((await srv.req('GET', '/api/dcim/sites/', undefined, 'nope-nope-nope')).status).to.equal(401);
  });

  it('a token without the permission -> 403, with it -> 200', async () => {
    expect((await srv.req('GET', '/api/dcim/sites/', undefined, VIEWER)).status).to.equal(200);
    expect((await srv.req('GET', '/api/dcim/devices/', undefined, VIEWER)).status).to.equal(403);
    const post = await srv.req('POST', '/api/dcim/sites/', { name: 'x', slug: 'x' }, VIEWER);
    expect(post.status).to.equal(403);
    expect(post.body).to.not.have.property('id');
    expect((await srv.req('GET', '/api/dcim/sites/?name=x')).body.count).to.equal(0);
  });

  it('OPTIONS lists POST field metadata only for a token that may add', async () => {
    const admin = await srv.req('OPTIONS', '/api/dcim/sites/');
    expect(admin.status).to.equal(200);
    expect(admin.body).to.include.keys(['name', 'description', 'renders', 'parses', 'actions']);
    const status = admin.body.actions.POST.status;
    expect(status).to.include({ type: 'choice', required: false, read_only: false, label: 'Status' });
    // display_name: DRF's, read by Ansible
    expect(status.choices).to.deep.include({ value: 'active', display: 'Active', display_name: 'Active' });
    expect(admin.body.actions.POST.id.read_only).to.equal(true);
    expect(admin.body.actions.POST.name.required).to.equal(true);
    const viewer = await srv.req('OPTIONS', '/api/dcim/sites/', undefined, VIEWER);
    expect(viewer.status).to.equal(200);
    expect(viewer.body).to.not.have.property('actions');
  });

  it('OPTIONS on an object path lists PUT field metadata only for a token that may change', async () => {
    const id = (await srv.req('POST', '/api/dcim/sites/', { name: 'opt', slug: 'opt' })).body.id;
    const admin = await srv.req('OPTIONS', `/api/dcim/sites/${id}/`);
    expect(admin.status).to.equal(200);
    expect(admin.body.name).to.equal('Site Instance');
    expect(admin.body.actions).to.have.keys(['PUT']);
    expect(admin.body.actions.PUT.status.choices).to.deep.include({
      value: 'active',
      display: 'Active',
      display_name: 'Active',
    });
    const viewer = await srv.req('OPTIONS', `/api/dcim/sites/${id}/`, undefined, VIEWER);
    expect(viewer.status).to.equal(200);
    expect(viewer.body).to.not.have.property('actions');
  });

  it('creates a token whose key is shown once and works at once; revoking it locks it out', async () => {
    const created = await srv.req('POST', '/api/users/tokens/', {
      permissions: ['dcim.view_device'],
      description: 'ci',
    });
    expect(created.status).to.equal(201);
    const key = created.body.key as string;
    expect(key).to.match(/^[0-9a-f]{40}$/);
    expect((await srv.req('GET', '/api/dcim/devices/', undefined, key)).status).to.equal(200);
    const list = await srv.req('GET', '/api/users/tokens/');
    expect(JSON.stringify(list.body)).to.not.include(key);
    const one = await srv.req('GET', `/api/users/tokens/${created.body.id}/`);
    expect(one.status).to.equal(200);
    expect(one.body)
      .to.include({ id: created.body.id, key_tail: key.slice(-4) })
      .and.not.have.property('key');
    const paged = await srv.req('GET', '/api/users/tokens/?limit=1');
    expect(paged.body.results).to.have.length(1);
    expect(paged.body.count).to.equal(list.body.count);
    expect((await srv.req('DELETE', `/api/users/tokens/${created.body.id}/`)).status).to.equal(204);
    expect((await srv.req('GET', `/api/users/tokens/${created.body.id}/`)).status).to.equal(404);
    expect((await srv.req('GET', '/api/dcim/devices/', undefined, key)).status).to.equal(401);
  });

  it('a token cannot grant more than its creator holds', async () => {
    const limited = await srv.req('POST', '/api/users/tokens/', { permissions: ['users.add_token', 'dcim.view_site'] });
    const res = await srv.req('POST', '/api/users/tokens/', { permissions: ['*'] }, limited.body.key);
    expect(res.status).to.equal(400);
    expect(res.body).to.have.keys(['permissions']);
  });
});
