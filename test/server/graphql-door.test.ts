// The GraphQL door over real sockets on the demo data: /graphql/ and /api/graphql/, POST and GET, REST's token
// check, variables and operationName, what is no GraphQL request (400), a mutation refused, the limits'
// errors naming their settings (GRAPHQL_MAX_DEPTH, GRAPHQL_MAX_ALIASES, GRAPHQL_MAX_OBJECTS, MAX_PAGE_SIZE
// clamping `limit`), and a token that may not view devices: an error at the root, null where nested.
import { expect } from 'chai';
import { ADMIN_KEY, startServer, type TestServer } from '../support/server.js';
import { loadConfig } from '../../server/config/load-config.js';

const SITES_ONLY = 'sites-only-key-0123456789';

/** GET with the query string's parameters (their values URL-encoded). */
const getPath = (path: string, params: Record<string, string>) => `${path}?${new URLSearchParams(params)}`;

const codes = (body: any): string[] => (body.errors ?? []).map((e: any) => e.extensions?.code ?? e.message);

describe('GraphQL door', function () {
  this.timeout(60_000);
  let srv: TestServer;
  let restSites: string[];
  before(async () => {
    srv = await startServer({
      demoData: true,
      tokens: [
        { key: ADMIN_KEY, permissions: ['*'] },
        { key: SITES_ONLY, permissions: ['dcim.view_site'] },
      ],
    });
    restSites = (await srv.req('GET', '/api/dcim/sites/?limit=1000')).body.results.map((s: any) => s.name);
    expect(restSites.length).to.be.greaterThan(2);
  });
  after(async () => {
    await srv?.close();
  });

  it('answers POST and GET at both paths (slash or not) alike, as REST lists', async () => {
    const query = '{ sites { name } site_list { name } }';
    const want = {
      data: { sites: restSites.map((name) => ({ name })), site_list: restSites.map((name) => ({ name })) },
    };
    for (const path of ['/graphql/', '/api/graphql/', '/graphql', '/api/graphql']) {
      const post = await srv.req('POST', path, { query });
      expect(post.status, path).to.equal(200);
      expect(post.headers.get('content-type')).to.match(/^application\/json/);
      expect(post.body).to.deep.equal(want);
      const get = await srv.req('GET', getPath(path, { query }));
      expect(get.status, path).to.equal(200);
      expect(get.body).to.deep.equal(want);
    }
  });

  it('needs a valid token as REST does: 401 with WWW-Authenticate, before any body is read', async () => {
    for (const key of [null, 'no-such-token']) {
      const post = await srv.req('POST', '/graphql/', { query: '{ sites { name } }' }, key);
      expect(post.status).to.equal(401);
      expect(post.headers.get('www-authenticate')).to.equal('Token');
      expect(post.body.detail).to.be.a('string');
      const get = await srv.req('GET', getPath('/api/graphql/', { query: '{ sites { name } }' }), undefined, key);
      expect(get.status).to.equal(401);
      expect(get.body).to.deep.equal(post.body);
    }
    const rest = await srv.req('GET', '/api/dcim/sites/', undefined, null);
    expect(rest.status).to.equal(401);
  });

  it('takes variables (an object in a body, JSON text in a query string) and picks the operation named', async () => {
    const query = `
      query One($name: [FilterValue]) { sites(name: $name) { name } }
      query Count { site_list(limit: 1) { name } }`;
    const variables = { name: [restSites[1]] };
    const post = await srv.req('POST', '/graphql/', { query, variables, operationName: 'One' });
    expect(post.body).to.deep.equal({ data: { sites: [{ name: restSites[1] }] } });
    const get = await srv.req(
      'GET',
      getPath('/api/graphql/', { query, variables: JSON.stringify(variables), operationName: 'One' }),
    );
    expect(get.body).to.deep.equal(post.body);
    const other = await srv.req('POST', '/graphql/', { query, operationName: 'Count' });
    expect(other.body).to.deep.equal({ data: { site_list: [{ name: restSites[0] }] } });
    const unnamed = await srv.req('POST', '/graphql/', { query });
    expect(unnamed.status).to.equal(200);
    expect(unnamed.body.data).to.equal(undefined);
    expect(unnamed.body.errors[0].message).to.match(/operation name/i);
  });

  it('answers 400 with a message for what is no GraphQL request', async () => {
    const bad: [string, string, unknown][] = [
      ['POST', '/graphql/', {}],
      ['POST', '/graphql/', { query: '' }],
      ['POST', '/graphql/', [{ query: '{ sites { name } }' }]],
      ['POST', '/graphql/', { query: '{ sites { name } }', variables: [1] }],
      ['POST', '/graphql/', { query: '{ sites { name } }', variables: '{"a": 1}' }],
      ['POST', '/graphql/', { query: '{ sites { name } }', operationName: 3 }],
      ['GET', '/api/graphql/', undefined],
      ['GET', getPath('/api/graphql/', { query: '{ sites { name } }', variables: '{nope' }), undefined],
      ['GET', `${getPath('/graphql/', { query: '{ sites { name } }' })}&query=x`, undefined],
    ];
    for (const [method, path, body] of bad) {
      const r = await srv.req(method, path, body);
      expect(r.status, `${method} ${path} ${JSON.stringify(body)}`).to.equal(400);
      expect(r.body.errors[0].message).to.be.a('string').and.not.equal('');
    }
    const broken = await srv.req('POST', '/graphql/', '{"query": ');
    expect(broken.status).to.equal(400);
    const put = await srv.req('PUT', '/graphql/', { query: '{ sites { name } }' });
    expect(put.status).to.equal(405);
    expect(put.headers.get('allow')).to.contain('POST');
  });

  it('answers GraphQL errors 200 with errors: syntax, unknown field or argument, mutation, subscription', async () => {
    for (const query of [
      '{ sites { name }',
      '{ sites { no_such_field } }',
      '{ sites(no_such_filter: "x") { name } }',
      'mutation { sites { name } }',
      'subscription { sites { name } }',
    ]) {
      for (const path of ['/graphql/', '/api/graphql/']) {
        const r = await srv.req('POST', path, { query });
        expect(r.status, query).to.equal(200);
        expect(r.body.errors, query).to.be.an('array').with.length.greaterThan(0);
        expect(r.body.data ?? null, query).to.equal(null);
      }
    }
    const named = await srv.req('POST', '/graphql/', { query: '{ sites(no_such_filter: "x") { name } }' });
    expect(named.body.errors[0].message).to.contain('no_such_filter');
    const get = await srv.req('GET', getPath('/graphql/', { query: 'mutation { sites { name } }' }));
    expect(get.status).to.equal(200);
    expect(get.body.errors).to.have.length.greaterThan(0);
  });

  it('refuses a query over GRAPHQL_MAX_DEPTH or GRAPHQL_MAX_ALIASES, naming the setting', async () => {
    let deep = 'name';
    for (let i = 0; i < 11; i++) deep = `${i % 2 ? 'site' : 'devices'} { ${deep} }`;
    const tooDeep = await srv.req('POST', '/graphql/', { query: `{ sites { ${deep} } }` });
    expect(tooDeep.status).to.equal(200);
    expect(codes(tooDeep.body)).to.deep.equal(['GRAPHQL_MAX_DEPTH']);
    expect(tooDeep.body.errors[0].message).to.contain('GRAPHQL_MAX_DEPTH');
    const aliases = Array.from({ length: 11 }, (_, i) => `a${i}: sites { name }`).join(' ');
    const tooMany = await srv.req('POST', '/api/graphql/', { query: `{ ${aliases} }` });
    expect(codes(tooMany.body)).to.deep.equal(['GRAPHQL_MAX_ALIASES']);
    expect(tooMany.body.errors[0].message).to.contain('GRAPHQL_MAX_ALIASES');
    const ten = Array.from({ length: 10 }, (_, i) => `a${i}: sites { name }`).join(' ');
    expect((await srv.req('POST', '/graphql/', { query: `{ ${ten} }` })).body.errors).to.equal(undefined);
  });

  it('at a token without dcim.view_device: devices are an error at the root and null where nested', async () => {
    const root = await srv.req('POST', '/graphql/', { query: '{ devices { name } }' }, SITES_ONLY);
    expect(root.status).to.equal(200);
    expect(root.body.errors).to.have.length(1);
    expect(root.body.errors[0].path).to.deep.equal(['devices']);
    expect(root.body.data?.devices ?? null).to.equal(null);
    const nested = await srv.req('POST', '/graphql/', { query: '{ sites { name devices { name } } }' }, SITES_ONLY);
    expect(nested.status).to.equal(200);
    expect(nested.body.data.sites.map((s: any) => s.name)).to.deep.equal(restSites);
    for (const s of nested.body.data.sites) expect(s.devices).to.equal(null);
    const allowed = await srv.req('POST', '/graphql/', { query: '{ site_list { name } }' }, SITES_ONLY);
    expect(allowed.body).to.deep.equal({ data: { site_list: restSites.map((name) => ({ name })) } });
    const deviceId = (await srv.req('GET', '/api/dcim/devices/?limit=1')).body.results[0].id;
    for (const query of [`{ device(id: "${deviceId}") { name } }`, '{ device_list { name } }']) {
      const one = await srv.req('POST', '/api/graphql/', { query }, SITES_ONLY);
      expect(one.body.errors, query).to.have.length(1);
      expect(Object.values(one.body.data ?? { x: null }), query).to.deep.equal([null]);
    }
    const rest = await srv.req('GET', '/api/dcim/devices/', undefined, SITES_ONLY);
    expect(rest.status).to.equal(403);
  });
});

describe('GraphQL limits from the configuration', function () {
  this.timeout(60_000);
  let srv: TestServer;
  before(async () => {
    srv = await startServer({
      demoData: true,
      graphqlMaxDepth: 2,
      graphqlMaxAliases: 1,
      graphqlMaxObjects: 5,
      maxPageSize: 2,
    });
  });
  after(async () => {
    await srv?.close();
  });

  it('reads GRAPHQL_MAX_DEPTH, _ALIASES and _OBJECTS from the environment, defaults 10, 10, 100000', () => {
    const dflt = loadConfig([], {});
    expect([dflt.graphqlMaxDepth, dflt.graphqlMaxAliases, dflt.graphqlMaxObjects]).to.deep.equal([10, 10, 100_000]);
    const set = loadConfig([], { GRAPHQL_MAX_DEPTH: '4', GRAPHQL_MAX_ALIASES: '0', GRAPHQL_MAX_OBJECTS: '50' });
    expect([set.graphqlMaxDepth, set.graphqlMaxAliases, set.graphqlMaxObjects]).to.deep.equal([4, 0, 50]);
    expect(() => loadConfig([], { GRAPHQL_MAX_DEPTH: '0' })).to.throw(/GRAPHQL_MAX_DEPTH/);
  });

  it('applies the configured depth and alias limits', async () => {
    expect((await srv.req('POST', '/graphql/', { query: '{ sites(limit: 1) { name } }' })).body.errors).to.equal(
      undefined,
    );
    const deep = await srv.req('POST', '/graphql/', { query: '{ sites(limit: 1) { tenant { name } } }' });
    expect(codes(deep.body)).to.deep.equal(['GRAPHQL_MAX_DEPTH']);
    expect(deep.body.errors[0].message).to.contain('(2)');
    const two = await srv.req('POST', '/graphql/', {
      query: '{ a: sites(limit: 1) { name } b: sites(limit: 1) { name } }',
    });
    expect(codes(two.body)).to.deep.equal(['GRAPHQL_MAX_ALIASES']);
  });

  it('stops over GRAPHQL_MAX_OBJECTS with an error naming it; clamps limit to MAX_PAGE_SIZE', async () => {
    const over = await srv.req('POST', '/graphql/', { query: '{ interfaces { name } }' });
    expect(over.status).to.equal(200);
    expect(over.body.errors.map((e: any) => e.message).join(' ')).to.contain('GRAPHQL_MAX_OBJECTS');
    expect(over.body.data?.interfaces ?? null).to.equal(null);
    const clamped = await srv.req('POST', '/graphql/', { query: '{ sites(limit: 100) { name } }' });
    expect(clamped.body.errors).to.equal(undefined);
    expect(clamped.body.data.sites).to.have.length(2);
  });
});
