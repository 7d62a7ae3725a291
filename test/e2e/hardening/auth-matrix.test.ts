// Every operation of /openapi.json x {no token, unknown token, token without its permission, token
// with it}: 401 / 401 / 403 / the operation's own answer, and refused requests carry no data.
import { expect } from 'chai';
import { startServer, ADMIN_KEY, type TestServer } from '../../support/server.js';

interface Op {
  method: string;
  path: string;
  permission: string;
  also: string[];
}
const ZERO_ID = '00000000-0000-4000-8000-000000000000';
const NOBODY = 'nobody-key-0123456789';

function concrete(path: string): string {
  return path
    .replace('{id}', ZERO_ID)
    .replace('{entity_id}', 'matrix-1')
    .replace('{name}', 'order_flow')
    .replace('{version}', '1.0.0');
}

describe('auth matrix from /openapi.json', function () {
  this.timeout(60000);
  let srv: TestServer;
  let ops: Op[] = [];
  before(async () => {
    srv = await startServer({
      tokens: [
        { key: ADMIN_KEY, permissions: ['*'] },
        { key: NOBODY, permissions: ['dcim.view_nothing'] },
      ],
    });
    const doc = (await srv.req('GET', '/openapi.json', undefined, null)).body;
    for (const [path, item] of Object.entries(
      doc.paths as Record<string, Record<string, { 'x-permission'?: string; 'x-also-permissions'?: string[] }>>,
    ))
      for (const [method, op] of Object.entries(item))
        if (op && typeof op === 'object' && op['x-permission'])
          ops.push({
            method: method.toUpperCase(),
            path,
            permission: op['x-permission'],
            also: op['x-also-permissions'] ?? [],
          });
  });
  after(() => srv.close());

  it('covers every permission-guarded operation', () => expect(ops.length).to.be.greaterThan(60));

  it('no token and an unknown token: 401 with WWW-Authenticate and no data', async () => {
    for (const op of ops)
      for (const key of [null, 'unknown-key-0123456789']) {
        const res = await srv.req(
          op.method,
          concrete(op.path),
          op.method === 'POST' || op.method === 'PUT' || op.method === 'PATCH' ? {} : undefined,
          key,
        );
        expect(res.status, `${op.method} ${op.path}`).to.equal(401);
        expect(res.headers.get('www-authenticate')).to.equal('Token');
        expect(Object.keys(res.body ?? {})).to.deep.equal(['detail']);
      }
  });

  it('a token without the permission: 403 and no data', async () => {
    for (const op of ops) {
      const res = await srv.req(
        op.method,
        concrete(op.path),
        ['POST', 'PUT', 'PATCH'].includes(op.method) ? {} : undefined,
        NOBODY,
      );
      expect(res.status, `${op.method} ${op.path}`).to.equal(403);
      expect(Object.keys(res.body ?? {})).to.deep.equal(['detail']);
    }
  });

  it(
    "a token with exactly that permission (and those it names besides) gets the operation's own answer (never " +
      '401/403/5xx)',
    async () => {
      for (const op of ops) {
        const key = `perm-${op.permission}`.replace(/[^a-z0-9-]/gi, '-');
        const t = await srv.req('POST', '/api/users/tokens/', { permissions: [op.permission, ...op.also] });
        const res = await srv.req(
          op.method,
          concrete(op.path),
          ['POST', 'PUT', 'PATCH'].includes(op.method) ? {} : undefined,
          t.body.key,
        );
        expect([401, 403], `${op.method} ${op.path} (${key})`).to.not.include(res.status);
        expect(res.status, `${op.method} ${op.path}`).to.be.below(500);
      }
    },
  );
});
