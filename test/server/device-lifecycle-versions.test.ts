// The shipped device_lifecycle machine: 1.1.0 stages devices at the demo data's sites (ams-core-01),
// 1.0.0 is unchanged (short names only), and a new entity takes the highest version.
import { expect } from 'chai';
import { startServer, type TestServer } from '../support/server.js';

describe('device_lifecycle 1.1.0 and 1.0.0', () => {
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ demoData: true });
  });
  after(async () => {
    await srv?.close();
  });

  it('ships both versions; a new entity takes 1.1.0', async () => {
    const versions = (await srv.req('GET', '/api/v1/machines?limit=100')).body.results
      .filter((m: any) => m.machine_name === 'device_lifecycle')
      .map((m: any) => m.version)
      .sort();
    expect(versions).to.deep.equal(['1.0.0', '1.1.0']);
    const e = await srv.req('POST', '/api/v1/entities/dev-new/create', { machine_name: 'device_lifecycle' });
    expect([e.status, e.body.machine_version]).to.deep.equal([201, '1.1.0']);
  });

  it('1.1.0 stages a device at every demo site; 1.0.0 still refuses those names', async () => {
    const sites = (await srv.req('GET', '/api/dcim/sites/?limit=100&brief=true')).body.results.map((s: any) => s.name);
    expect(sites).to.have.length(30);
    for (const [i, site] of sites.entries()) {
      await srv.req('POST', `/api/v1/entities/dev-${i}/create`, {
        machine_name: 'device_lifecycle',
        machine_version: '1.1.0',
      });
      const r = await srv.req('POST', `/api/v1/entities/dev-${i}/events`, { trigger: 'stage', context: { site } });
      expect([site, r.status, r.body.target_state]).to.deep.equal([site, 200, 'staged']);
    }
    await srv.req('POST', '/api/v1/entities/old-1/create', {
      machine_name: 'device_lifecycle',
      machine_version: '1.0.0',
    });
    const old = await srv.req('POST', '/api/v1/entities/old-1/events', {
      trigger: 'stage',
      context: { site: sites[0] },
    });
    expect([old.status, old.body.code]).to.deep.equal([409, 'guard_rejected']);
    const short = await srv.req('POST', '/api/v1/entities/old-1/events', {
      trigger: 'stage',
      context: { site: 'ams01' },
    });
    expect(short.status).to.equal(200);
  });
});
