// Heavy list queries (regex, case-insensitive text lookups) are capped at MAX_HEAVY_QUERIES at once:
// past it a 429 with Retry-After, while light requests keep being answered.
import { expect } from 'chai';
import { datasetBatches } from '../../../bench/generate.js';
import { startServer, type TestServer } from '../../support/server.js';

describe('heavy queries under MAX_HEAVY_QUERIES', function () {
  this.timeout(120000);
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ storage: 'memory:', maxHeavyQueries: 1, queryTimeoutMs: 0 });
    for (const batch of datasetBatches({ prefixes: 100_000, seed: 5, shape: 'uniform', v6Share: 1 / 6 }))
      await srv.running.ctx.storage.apply(batch);
  });
  after(async () => {
    await srv.close();
  });

  it('past the cap: 429 with Retry-After; under it: answered; light requests answered meanwhile', async () => {
    // No literal to look up in the trigram index: every row is scanned (and the scans take turns).
    const heavy = Array.from({ length: 24 }, (_, i) =>
      srv.req('GET', `/api/ipam/prefixes/?description__ire=^([a-e]|${i})*$&limit=5`),
    );
    const light = await srv.req('GET', '/api/ipam/prefixes/?status=active&limit=1');
    const outs = await Promise.all(heavy);
    expect(light.status).to.equal(200);
    const refused = outs.filter((o) => o.status === 429);
    expect(refused.length, 'refused past the cap').to.be.greaterThan(0);
    expect(outs.filter((o) => o.status === 200).length, 'answered under the cap').to.be.at.least(1);
    expect(refused[0].headers.get('retry-after')).to.equal('1');
    expect(refused[0].body.code).to.equal('too_many_heavy_queries');
    // Once they are done, the next heavy query is answered.
    expect((await srv.req('GET', '/api/ipam/prefixes/?description__ic=zz&limit=5')).status).to.equal(200);
  });
});
