// Filtering behaviour beyond the conformance cases: STRICT_FILTERING=false, explain, plan cache.
import { expect } from 'chai';
import { startServer, type TestServer } from '../support/server.js';

describe('filtering over HTTP', () => {
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ demoData: true });
  });
  after(() => srv.close());

  it('explain=true returns the plan and, per predicate, the index and candidate count', async () => {
    const res = await srv.req(
      'GET',
      '/api/ipam/prefixes/?network__net_contained=10.0.0.0/8&status=active&explain=true',
    );
    expect(res.status).to.equal(200);
    expect(res.body.plan).to.equal('and(network contained 10.0.0.0/8, status eq "active")');
    const preds = res.body.execution.predicates as { predicate: string; index: string; candidates: number }[];
    expect(preds.map((p) => p.index)).to.deep.equal(['containment(network).contained', 'hash(status)']);
    const count = (await srv.req('GET', '/api/ipam/prefixes/?network__net_contained=10.0.0.0/8&status=active')).body
      .count;
    expect(res.body.execution.matched).to.equal(count);
    expect(res.body.execution.candidates).to.equal(Math.min(...preds.map((p) => p.candidates)));
  });

  it('explain says how the requested page is taken', async () => {
    const res = await srv.req(
      'GET',
      '/api/ipam/prefixes/?status=active&ordering=-prefix_length&offset=2&limit=3&explain=true',
    );
    expect(res.body.execution.page).to.deep.include({ ordering: '-prefix_length', offset: 2, limit: 3 });
    expect(res.body.execution.page.method).to.match(/heap/);
  });

  it('explain names a scan when no index serves a predicate', async () => {
    const res = await srv.req('GET', '/api/dcim/sites/?cf_contact__ic=noc&explain=true');
    expect(res.body.execution.strategy).to.equal('scan');
  });

  it('the same query with another page reuses the plan and pages correctly', async () => {
    const a = await srv.req('GET', '/api/dcim/interfaces/?type=virtual&limit=5');
    const b = await srv.req('GET', '/api/dcim/interfaces/?type=virtual&limit=5&offset=5');
    expect(a.body.count).to.equal(b.body.count);
    const ids = new Set([...a.body.results, ...b.body.results].map((x: { id: string }) => x.id));
    expect(ids.size).to.equal(10);
  });

  it('a custom field created at runtime is filterable at once (plan cache keyed by schema version)', async () => {
    expect((await srv.req('GET', '/api/dcim/sites/?cf_floor=1')).status).to.equal(400);
    await srv.req('POST', '/api/extras/custom-fields/', {
      name: 'floor',
      type: 'integer',
      content_types: ['dcim.site'],
    });
    const site = (await srv.req('GET', '/api/dcim/sites/?limit=1')).body.results[0];
    await srv.req('PATCH', `/api/dcim/sites/${site.id}/`, { custom_fields: { floor: 1 } });
    const res = await srv.req('GET', '/api/dcim/sites/?cf_floor=1');
    expect(res.status).to.equal(200);
    expect(res.body.results.map((s: { id: string }) => s.id)).to.deep.equal([site.id]);
  });
});

describe('STRICT_FILTERING=false', () => {
  let srv: TestServer;
  const warnings: string[] = [];
  before(async () => {
    srv = await startServer({ demoData: true, strictFiltering: false });
    srv.running.ctx.log.warn = (m: string) => {
      warnings.push(m);
    };
  });
  after(() => srv.close());

  it('ignores and logs unknown parameters but still rejects invalid values', async () => {
    const all = (await srv.req('GET', '/api/dcim/sites/?status=active')).body.count;
    const res = await srv.req('GET', '/api/dcim/sites/?status=active&bogus=1&name__nope=x');
    expect(res.status).to.equal(200);
    expect(res.body.count).to.equal(all);
    expect(warnings.join('\n')).to.include('bogus').and.include('name__nope');
    expect((await srv.req('GET', '/api/dcim/sites/?asn__gte=x&bogus=1')).body).to.have.keys(['asn__gte']);
  });
});
