// fields= / omit= (NetBox 4) narrow each object of a list or a detail answer; exclude, exclude_m2m
// and depth are accepted and change nothing; none of them is ever taken for a filter.
import { expect } from 'chai';
import { startServer, type TestServer } from '../../support/server.js';

describe('response shaping: fields, omit, exclude, depth', function () {
  this.timeout(60000);
  let srv: TestServer;
  let id: string;
  before(async () => {
    srv = await startServer({ storage: 'memory:', strictFiltering: true });
    await srv.req('POST', '/api/dcim/regions/', { name: 'Europe', slug: 'eu' });
    id = (await srv.req('POST', '/api/dcim/sites/', { name: 'a', slug: 'a', region: { slug: 'eu' }, description: 'd' }))
      .body.id;
  });
  after(async () => {
    await srv?.close();
  });

  it('fields keeps the named fields, with id and url always', async () => {
    const r = await srv.req('GET', '/api/dcim/sites/?fields=name,region');
    expect(r.status).to.equal(200);
    expect(Object.keys(r.body.results[0])).to.deep.equal(['id', 'url', 'name', 'region']);
    expect(r.body.results[0].region.slug).to.equal('eu');
    const twice = await srv.req('GET', '/api/dcim/sites/?fields=name&fields=display');
    expect(Object.keys(twice.body.results[0])).to.deep.equal(['id', 'url', 'display', 'name']);
    const detail = await srv.req('GET', `/api/dcim/sites/${id}/?fields=slug`);
    expect(detail.body).to.deep.equal({ id, url: detail.body.url, slug: 'a' });
    const strong = (await srv.req('GET', `/api/dcim/sites/${id}/`)).headers.get('etag');
    expect(detail.headers.get('etag'), "a narrowed form has not the object's strong ETag").to.not.equal(strong);
  });

  it('omit leaves fields out (never id or url)', async () => {
    const whole = (await srv.req('GET', `/api/dcim/sites/${id}/`)).body;
    const r = await srv.req('GET', `/api/dcim/sites/?omit=custom_fields,tags,id`);
    expect(Object.keys(r.body.results[0])).to.deep.equal(
      Object.keys(whole).filter((k) => k !== 'custom_fields' && k !== 'tags'),
    );
  });

  it('unknown names and fields with brief are 400s naming them', async () => {
    const r = await srv.req('GET', '/api/dcim/sites/?fields=name,colour');
    expect(r.status).to.equal(400);
    expect(r.body).to.deep.equal({ fields: ['Unknown field: "colour".'] });
    expect((await srv.req('GET', '/api/dcim/sites/?omit=nope')).body).to.deep.equal({
      omit: ['Unknown field: "nope".'],
    });
    expect((await srv.req('GET', '/api/dcim/sites/?fields=name&brief=true')).body.fields).to.include(
      'fields cannot be combined with brief.',
    );
    expect((await srv.req('GET', `/api/dcim/sites/${id}/?fields=hidden_thing`)).status).to.equal(400);
  });

  it('exclude, exclude_m2m and depth are accepted under strict filtering and change nothing', async () => {
    const plain = (await srv.req('GET', '/api/dcim/sites/')).body;
    const r = await srv.req('GET', '/api/dcim/sites/?exclude=config_context&exclude_m2m=true&depth=1');
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal(plain);
  });

  it('the OpenAPI document lists them on list and detail reads', async () => {
    const doc = (await srv.req('GET', '/openapi.json')).body;
    for (const path of ['/api/dcim/sites/', '/api/dcim/sites/{id}/']) {
      const names = doc.paths[path].get.parameters.map((p: { name?: string }) => p.name);
      expect(names).to.include.members(['fields', 'omit', 'exclude', 'exclude_m2m', 'depth']);
    }
  });
});
