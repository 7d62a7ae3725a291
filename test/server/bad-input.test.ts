// Every kind of bad input is a 400 naming the field (never a 500) and writes nothing.
import { expect } from 'chai';
import { startServer, type TestServer } from '../support/server.js';

describe('bad input', () => {
  let srv: TestServer;
  let siteId: string;
  before(async () => {
    srv = await startServer();
    siteId = (await srv.req('POST', '/api/dcim/sites/', { name: 'base', slug: 'base' })).body.id;
  });
  after(() => srv.close());

  const cases: [string, string, unknown, string][] = [
    ['wrong type for a string', '/api/dcim/sites/', { name: 5, slug: 'x1' }, 'name'],
    ['wrong type for an integer', '/api/dcim/sites/', { name: 'x2', slug: 'x2', asn: 'many' }, 'asn'],
    ['integer out of range', '/api/ipam/vlans/', { vid: 4095, name: 'v' }, 'vid'],
    ['unknown choice', '/api/dcim/sites/', { name: 'x3', slug: 'x3', status: 'sleeping' }, 'status'],
    ['unknown field', '/api/dcim/sites/', { name: 'x4', slug: 'x4', colour: 'red' }, 'colour'],
    ['missing required field', '/api/dcim/sites/', { slug: 'x5' }, 'name'],
    ['bad slug', '/api/dcim/sites/', { name: 'x6', slug: 'no spaces' }, 'slug'],
    [
      'unknown foreign key id',
      '/api/dcim/devices/',
      { name: 'd', site: '00000000-0000-4000-8000-000000000000' },
      'site',
    ],
    ['foreign key that is not an id', '/api/dcim/devices/', { name: 'd', site: 'base' }, 'site'],
    ['duplicate unique name', '/api/dcim/sites/', { name: 'base', slug: 'other' }, 'name'],
    ['prefix with host bits', '/api/ipam/prefixes/', { prefix: '10.0.0.1/8' }, 'prefix'],
    ['prefix that is not a network', '/api/ipam/prefixes/', { prefix: '10.0.0.0/40' }, 'prefix'],
    ['address that is not an address', '/api/ipam/ip-addresses/', { address: '10.0.0.256/24' }, 'address'],
    [
      'bad MAC address',
      '/api/dcim/interfaces/',
      { name: 'e', type: 'virtual', device: '00000000-0000-4000-8000-000000000000', mac_address: 'zz:zz' },
      'mac_address',
    ],
    ['unknown tag', '/api/dcim/sites/', { name: 'x7', slug: 'x7', tags: ['nope'] }, 'tags'],
    ['tags not a list', '/api/dcim/sites/', { name: 'x8', slug: 'x8', tags: 'core' }, 'tags'],
    [
      'custom field name pattern',
      '/api/extras/custom-fields/',
      { name: 'Bad-Name', content_types: ['dcim.site'] },
      'name',
    ],
    [
      'custom field for an unknown content type',
      '/api/extras/custom-fields/',
      { name: 'cf_ct', content_types: ['dcim.nothing'] },
      'content_types',
    ],
    [
      'custom field default of another type',
      '/api/extras/custom-fields/',
      { name: 'cf_int', type: 'integer', default: 'abc', content_types: ['dcim.site'] },
      'default',
    ],
    [
      'custom field default outside its choices',
      '/api/extras/custom-fields/',
      { name: 'cf_sel', type: 'select', choices: ['a', 'b'], default: 'c', content_types: ['dcim.site'] },
      'default',
    ],
    [
      'choices on a text custom field',
      '/api/extras/custom-fields/',
      { name: 'cf_txt', type: 'text', choices: ['a'], content_types: ['dcim.site'] },
      'choices',
    ],
    ['an object for a choice', '/api/dcim/sites/', { name: 'x9', slug: 'x9', status: { value: 'active' } }, 'status'],
  ];
  for (const [what, path, body, field] of cases) {
    it(`${what} -> 400 naming ${field}`, async () => {
      const before = (await srv.req('GET', path)).body.count;
      const res = await srv.req('POST', path, body);
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body).to.have.property(field).that.is.an('array').that.is.not.empty;
      expect((await srv.req('GET', path)).body.count).to.equal(before);
    });
  }

  it('prototype-named parameters and fields are ordinary unknown names (400), never a 500', async () => {
    for (const q of [
      'valueOf=1',
      'constructor=1',
      '__proto__=1',
      'name__constructor=x',
      'network__toString=1',
      'cf_x__hasOwnProperty=1',
    ]) {
      const res = await srv.req('GET', `/api/dcim/sites/?${q}`);
      expect(res.status, q).to.equal(400);
    }
    const body = await srv.req(
      'POST',
      '/api/dcim/sites/',
      '{"name": "p", "slug": "p", "__proto__": {"x": 1}, "valueOf": 2, "constructor": 3}',
    );
    expect(body.status).to.equal(400);
    expect(Object.keys(body.body).sort()).to.deep.equal(['__proto__', 'constructor', 'valueOf']);
  });

  it('malformed JSON is a 400 with a detail and a code', async () => {
    for (const path of ['/api/dcim/sites/', '/api/v1/machines']) {
      const res = await srv.req('POST', path, '{"name": ');
      expect(res.status).to.equal(400);
      expect(res.body.detail).to.match(/JSON/);
      expect(res.body.code).to.equal('invalid_json');
    }
  });

  it('a known path under another method is a 405 with Allow; an unknown one a 404; both with a code', async () => {
    for (const [method, path, allow] of [
      ['POST', '/api/dcim/sites/00000000-0000-4000-8000-000000000001/', 'GET'],
      ['PUT', '/api/v1/entities/x/events', 'POST'],
      ['DELETE', '/api/v1/entities/x', 'GET'],
    ]) {
      const res = await srv.req(method, path);
      expect(res.status, `${method} ${path}`).to.equal(405);
      expect(res.body.code).to.equal('method_not_allowed');
      expect(res.headers.get('allow')).to.include(allow);
      expect(res.headers.get('allow')).to.not.include(method);
    }
    const missing = await srv.req('GET', '/api/v1/nothing-here');
    expect(missing.status).to.equal(404);
    expect(missing.body).to.include({ code: 'not_found' });
  });

  it('a body that is not an object is a 400', async () => {
    const res = await srv.req('POST', '/api/dcim/sites/', '"text"');
    expect(res.status).to.equal(400);
    expect(res.body).to.have.property('non_field_errors');
  });

  it('duplicate unique values inside one bulk create are refused whole', async () => {
    const res = await srv.req('POST', '/api/dcim/sites/', [
      { name: 'twin', slug: 'twin' },
      { name: 'twin', slug: 'twin2' },
    ]);
    expect(res.status).to.equal(400);
    expect((await srv.req('GET', '/api/dcim/sites/?name=twin')).body.count).to.equal(0);
  });

  it('unique together: a device name repeats only across sites', async () => {
    const s2 = (await srv.req('POST', '/api/dcim/sites/', { name: 'other', slug: 'other' })).body.id;
    expect((await srv.req('POST', '/api/dcim/devices/', { name: 'r1', site: siteId })).status).to.equal(201);
    expect((await srv.req('POST', '/api/dcim/devices/', { name: 'r1', site: s2 })).status).to.equal(201);
    const dup = await srv.req('POST', '/api/dcim/devices/', { name: 'r1', site: siteId });
    expect(dup.status).to.equal(400);
  });

  it('unknown path and unknown object are 404 JSON', async () => {
    const a = await srv.req('GET', '/api/dcim/nothing/');
    expect(a.status).to.equal(404);
    expect(a.body).to.have.property('detail');
    expect((await srv.req('GET', '/api/dcim/sites/00000000-0000-4000-8000-000000000000/')).status).to.equal(404);
    expect((await srv.req('GET', '/api/dcim/sites/not-an-id/')).status).to.equal(404);
  });

  it('paging parameters are never refused: bad ones fall back to their defaults, as in Nautobot', async () => {
    for (let i = 0; i < 3; i++) await srv.req('POST', '/api/dcim/sites/', { name: `page-${i}`, slug: `page-${i}` });
    const names = (r: { body: { results: { name: string }[] } }) => r.body.results.map((x) => x.name);
    const all = await srv.req('GET', '/api/dcim/sites/?name__isw=page-');
    for (const q of ['limit=abc', 'limit=-1', 'offset=abc', 'offset=-5', 'ordering=nope', 'ordering=nope,region']) {
      const r = await srv.req('GET', `/api/dcim/sites/?name__isw=page-&${q}`);
      expect(r.status, q).to.equal(200);
      expect(names(r), q).to.deep.equal(names(all));
    }
    // A good term beside a bad one is kept.
    const r = await srv.req('GET', '/api/dcim/sites/?name__isw=page-&ordering=nope,-name');
    expect(names(r)).to.deep.equal(['page-2', 'page-1', 'page-0']);
    expect(names(await srv.req('GET', '/api/dcim/sites/?name__isw=page-&limit=2&offset=x'))).to.deep.equal([
      'page-0',
      'page-1',
    ]);
  });

  it('an id filter reads every spelling of a UUID', async () => {
    const hex = siteId.replace(/-/g, '');
    for (const v of [hex, hex.toUpperCase(), `{${siteId}}`, `urn:uuid:${siteId}`]) {
      const r = await srv.req('GET', `/api/dcim/sites/?id=${encodeURIComponent(v)}`);
      expect(r.status, v).to.equal(200);
      expect(
        r.body.results.map((x: { id: string }) => x.id),
        v,
      ).to.deep.equal([siteId]);
    }
    expect((await srv.req('GET', `/api/dcim/sites/?id=${hex}0`)).body).to.have.keys(['id']);
  });
});
