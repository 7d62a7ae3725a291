// The list envelope: count, next/previous links that walk every object once, limit clamping.
import { expect } from 'chai';
import { startServer, type TestServer } from '../support/server.js';

describe('pagination and ordering', () => {
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ maxPageSize: 20 });
    await srv.req(
      'POST',
      '/api/extras/tags/',
      Array.from({ length: 45 }, (_, i) => ({ name: `t${String(i).padStart(2, '0')}`, slug: `t${i}` })),
    );
  });
  after(() => srv.close());

  it('follows next links through every object exactly once', async () => {
    const seen: string[] = [];
    let url: string | null = `${srv.url}/api/extras/tags/?limit=10`;
    let pages = 0;
    while (url) {
      const res = await srv.req('GET', url.slice(srv.url.length));
      expect(res.body.count).to.equal(45);
      seen.push(...res.body.results.map((t: { name: string }) => t.name));
      url = res.body.next;
      pages++;
    }
    expect(pages).to.equal(5);
    expect(seen).to.deep.equal([...seen].sort());
    expect(new Set(seen).size).to.equal(45);
  });

  it('previous points back; limit above maxPageSize is clamped', async () => {
    const res = await srv.req('GET', '/api/extras/tags/?limit=10&offset=20');
    expect(res.body.previous).to.match(/offset=10/);
    const big = await srv.req('GET', '/api/extras/tags/?limit=500');
    expect(big.body.results).to.have.length(20);
    expect(big.body.next).to.match(/limit=20&offset=20/);
  });

  it('orders by any scalar field, descending with -', async () => {
    const res = await srv.req('GET', '/api/extras/tags/?ordering=-name&limit=3');
    expect(res.body.results.map((t: { name: string }) => t.name)).to.deep.equal(['t44', 't43', 't42']);
  });
});
