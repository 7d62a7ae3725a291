// Importing from a NetBox REST API reads the same rows as importing from NetBox's database: NetBox's demo
// database (4.2) is loaded into PostgreSQL, a fixture server answers NetBox-4.2-shaped JSON made from it
// (test/support/netbox-api-fixture.ts, not the product), and every table read through NetboxApiSource
// equals the same table read straight from the database (PgNetboxSource). Retries (429 with Retry-After,
// 503, a dropped connection) end in the same rows; a refused token and a URL that is not NetBox are one
// clear error each; nothing but GET ever reaches the API.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import pg from 'pg';
import { NetboxApiSource } from '../../../storage/netbox-import/api-source.js';
import { NetboxApiError } from '../../../storage/netbox-import/http-client.js';
import { PgNetboxSource } from '../../../storage/netbox-import/pg-source.js';
import { NETBOX_TABLES, type NetboxSource } from '../../../storage/netbox-import/row-source.js';
import { testDatabaseOrSkip, type TestDatabase } from '../../../storage/test-db.js';
import { NetboxApiFixture } from '../../support/netbox-api-fixture.js';

const DEMO_SQL = process.env.NETBOX_DEMO_SQL ?? '/work/shared/netbox-demo/netbox-demo-v4.2.sql';
const TOKEN = '0123456789abcdef0123456789abcdef01234567';

/**
 * The demo holds no assigned address, no custom field value, no service, no host address, no time zone
 * and no tags but on sites: a few edits so every rule of the mapping meets a value.
 */
const EDITS = [
  `UPDATE ipam_ipaddress SET assigned_object_type_id = (SELECT id FROM django_content_type
     WHERE app_label = 'dcim' AND model = 'interface'), assigned_object_id = id * 3 WHERE id <= 10`,
  `UPDATE ipam_ipaddress SET assigned_object_type_id = (SELECT id FROM django_content_type
     WHERE app_label = 'virtualization' AND model = 'vminterface'), assigned_object_id = id WHERE id BETWEEN 11 AND 15`,
  `UPDATE ipam_ipaddress SET address = ('10.9.9.' || id || '/32')::inet, role = 'vip' WHERE id IN (16, 17)`,
  // The demo's one custom field (cust_id) is a tenant's.
  `UPDATE tenancy_tenant SET custom_field_data = '{"cust_id": "ABC01"}' WHERE id IN (1, 2)`,
  `UPDATE dcim_site SET time_zone = 'Europe/Paris' WHERE id IN (1, 2)`,
  `UPDATE dcim_site SET custom_field_data = '{"cust_id": null}', latitude = 48.856613, longitude = 2.352222
     WHERE id = 3`,
  `UPDATE dcim_device SET created = '2024-01-02 03:04:05.123456+00', position = 12.5 WHERE id = 1`,
  `UPDATE virtualization_virtualmachine SET vcpus = 1.5 WHERE id = 1`,
  `INSERT INTO ipam_service (created, last_updated, custom_field_data, name, protocol, ports, description,
     device_id, virtual_machine_id, comments) VALUES (now(), now(), '{}', 'ssh', 'tcp', '{22,2222}', '', 1, NULL, '')`,
  // A choice set (none in the demo): a two-dimensional text array, quoted where it must be.
  `INSERT INTO extras_customfieldchoiceset (created, last_updated, name, description, base_choices, extra_choices,
     order_alphabetically) VALUES (now(), now(), 'tiers', '', '', '{{gold,Gold},{"a b","A, \\"b\\" {c}"}}', false)`,
  `INSERT INTO extras_taggeditem (object_id, content_type_id, tag_id)
     SELECT o.id, c.id, t.id FROM (VALUES (1), (2)) o(id), django_content_type c, extras_tag t
     WHERE c.app_label || '.' || c.model IN ('dcim.device', 'ipam.ipaddress', 'dcim.interface') AND t.id <= 2`,
];

async function all(source: NetboxSource, table: string): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for await (const r of source.rows(table)) rows.push(r);
  return rows;
}

async function failure(p: Promise<unknown>): Promise<NetboxApiError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e, 'an error').to.be.instanceOf(NetboxApiError);
  return e as NetboxApiError;
}

describe('NetBox import from the REST API (NetboxApiSource) against the demo database', function () {
  this.timeout(120000);
  let db: TestDatabase | null = null;
  let fixture: NetboxApiFixture;
  let fromDb: PgNetboxSource;
  const expected = new Map<string, Record<string, unknown>[]>();

  before(async function () {
    if (!fs.existsSync(DEMO_SQL)) return this.skip();
    const got = await testDatabaseOrSkip('postgres');
    if ('skip' in got) return this.skip();
    db = got;
    // The dump's `OWNER TO netbox` lines fail harmlessly without that role: no ON_ERROR_STOP.
    await promisify(execFile)('psql', ['-q', '-X', '-d', db.url, '-f', DEMO_SQL], {
      maxBuffer: 64 << 20,
      env: { ...process.env, PGOPTIONS: '-c synchronous_commit=off' }, // half the load time
    });
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      for (const sql of EDITS) await c.query(sql);
    } finally {
      await c.end();
    }
    fromDb = await PgNetboxSource.open(db.url, { pageSize: 50 }); // interfaces in 32 pages, tagged items in 2
    for (const t of NETBOX_TABLES) expected.set(t.table, await all(fromDb, t.table));
    fixture = await NetboxApiFixture.start({
      databaseUrl: db.url,
      token: TOKEN,
      publicBase: 'https://netbox.example.test/', // links name a host the reader must not follow
    });
  });

  after(async () => {
    if (fixture) {
      const methods = new Set(fixture.requests.map((r) => r.method));
      await fixture.stop();
      expect([...methods], 'methods the API saw').to.deep.equal(['GET']);
    }
    await fromDb?.close();
    await db?.drop();
  });

  const open = (extra: object = {}) =>
    NetboxApiSource.open({ url: `${fixture.url}/api/`, token: TOKEN, backoffMs: 20, ...extra });

  it('every table read through the API equals the same table read from the database, row by row', async () => {
    const api = await open();
    expect(await api.version()).to.equal('4.2.9');
    expect(await fromDb.version()).to.equal('4.2');
    const sizes: Record<string, number> = {};
    for (const t of NETBOX_TABLES) {
      const want = expected.get(t.table)!;
      const got = await all(api, t.table);
      expect(got.length, `${t.table}: rows`).to.equal(want.length);
      for (let i = 0; i < want.length; i++) expect(got[i], `${t.table} row ${i}`).to.deep.equal(want[i]);
      expect(await api.count(t.table), `${t.table}: count`).to.equal(want.length);
      sizes[t.table] = want.length;
    }
    await api.close();
    // The edits and the demo reach every rule: scoped prefixes, assigned addresses, tags, a service.
    expect(sizes).to.include({ dcim_interface: 1586, ipam_prefix: 90, ipam_service: 1, dcim_site: 24 });
    expect(sizes.extras_taggeditem).to.equal(72 + 12);
    const ips = expected.get('ipam_ipaddress')!;
    expect(ips.filter((r) => r.assigned_object_type_id !== null)).to.have.length(15);
    expect(ips.find((r) => r.id === 16)).to.include({ address: '10.9.9.16/32', role: 'vip' });
    expect(expected.get('ipam_prefix')!.filter((r) => r.scope_type_id !== null)).to.have.length(65);
    expect(expected.get('dcim_site')!.find((r) => r.id === 1)).to.include({ time_zone: 'Europe/Paris' });
    const tenant = expected.get('tenancy_tenant')!.find((r) => r.id === 1);
    expect(tenant).to.deep.include({ custom_field_data: { cust_id: 'ABC01' } });
    expect(expected.get('dcim_device')!.find((r) => r.id === 1)).to.include({
      created: '2024-01-02T03:04:05.123456Z',
      position: 12.5,
    });
    expect(expected.get('ipam_service')![0]).to.deep.include({ ports: [22, 2222], protocol: 'tcp' });
  });

  it("NetBox 3.7's shape: a prefix's and a cluster's `site` is site_id; content types at their 3.7 place", async () => {
    const old = await NetboxApiFixture.start({ databaseUrl: db!.url, token: TOKEN, shape: '3.7' });
    const c = new pg.Client({ connectionString: db!.url });
    await c.connect();
    try {
      const api = await NetboxApiSource.open({ url: old.url, token: TOKEN });
      expect(await api.version()).to.equal('3.7.8');
      for (const table of ['ipam_prefix', 'virtualization_cluster']) {
        const sites = new Map<number, number | null>(
          (await c.query(`SELECT id, _site_id FROM ${table}`)).rows.map(
            (r: { id: string; _site_id: string | null }) => [
              Number(r.id),
              r._site_id === null ? null : Number(r._site_id),
            ],
          ),
        );
        const want = expected.get(table)!.map(({ scope_type_id: _t, scope_id: _i, ...rest }) => ({
          ...rest,
          site_id: sites.get(rest.id as number),
        }));
        expect(await all(api, table), table).to.deep.equal(want);
        if (table === 'ipam_prefix') expect(want.filter((r) => r.site_id !== null)).to.have.length(65);
      }
      expect(await all(api, 'extras_taggeditem')).to.deep.equal(expected.get('extras_taggeditem'));
      expect(old.requests.some((r) => r.url.startsWith('/api/extras/content-types/'))).to.equal(true);
      expect(new Set(old.requests.map((r) => r.method))).to.deep.equal(new Set(['GET']));
    } finally {
      await c.end();
      await old.stop();
    }
  });

  it('reads pages of limit=1000 in id order, and follows next links on its own host', async () => {
    const from = fixture.requests.length;
    const api = await open();
    await all(api, 'dcim_interface');
    const asked = fixture.requests.slice(from).map((r) => new URL(r.url, 'http://x'));
    const pages = asked.filter((u) => u.pathname === '/api/dcim/interfaces/');
    expect(
      pages.map((u) => [u.searchParams.get('limit'), u.searchParams.get('offset'), u.searchParams.get('ordering')]),
    ).to.deep.equal([
      ['1000', null, 'id'],
      ['1000', '1000', 'id'],
    ]);
  });

  it('429 (Retry-After), 503, connections dropped before and inside an answer: retried, the same rows', async () => {
    const api = await open();
    fixture.faults.push(
      { path: '/api/dcim/sites/', fault: '429' },
      { path: '/api/dcim/interfaces/', fault: '503' },
      { path: '/api/dcim/interfaces/', fault: 'reset' },
      { path: '/api/dcim/interfaces/', fault: 'cut' },
      { path: '/api/extras/object-types/', fault: 'reset' },
    );
    const from = fixture.requests.length;
    for (const table of ['dcim_site', 'dcim_interface'])
      expect(await all(api, table), table).to.deep.equal(expected.get(table));
    expect(fixture.faults, 'every fault met').to.deep.equal([]);
    const sites = fixture.requests.slice(from).filter((r) => r.url.startsWith('/api/dcim/sites/'));
    expect(sites).to.have.length(2);
    expect(sites[1]!.at - sites[0]!.at, 'waited for Retry-After: 1').to.be.at.least(950);
  });

  it('gives up with one clear error when the failures go on', async () => {
    const api = await open({ attempts: 3 });
    fixture.faults.push(...[1, 2, 3].map(() => ({ path: '/api/dcim/racks/', fault: '503' as const })));
    const e = await failure(all(api, 'dcim_rack'));
    expect(e.failure).to.equal('http');
    expect(e.message).to.match(/answered 503 .*after 3 tries/);
  });

  it('a token NetBox refuses is one clear error, before any table is read, without retries', async () => {
    const from = fixture.requests.length;
    const e = await failure(NetboxApiSource.open({ url: fixture.url, token: 'wrong', backoffMs: 20 }));
    expect(e.failure).to.equal('token');
    expect(e.message).to.match(/refused the token.*403.*Invalid token/);
    expect(fixture.requests.length - from).to.equal(1);
  });

  it('a NetBox 4.5 token (nbt_…) goes as Bearer', async () => {
    fixture.token = 'nbt_abcdefghijkl.0123456789abcdef0123456789abcdef';
    try {
      const api = await NetboxApiSource.open({ url: fixture.url, token: fixture.token });
      expect(await api.count('dcim_site')).to.equal(24);
    } finally {
      fixture.token = TOKEN;
    }
  });

  it('a redirect is one clear error naming where to (followed, it would lose the token)', async () => {
    const server = createServer((_req, res) =>
      res.writeHead(301, { Location: 'https://netbox.example.test/api/status/' }).end(),
    );
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const e = await failure(NetboxApiSource.open({ url, token: TOKEN, backoffMs: 20 }));
      expect(e.failure).to.equal('redirect');
      expect(e.message).to.match(/redirected .*301 .*to https:\/\/netbox\.example\.test\/api\/status\//);
    } finally {
      server.close();
    }
  });

  it('a URL that is not NetBox is one clear error', async () => {
    let server: Server | null = null;
    try {
      for (const [status, type, body] of [
        [200, 'text/html', '<html><body>Welcome to nginx!</body></html>'],
        [404, 'application/json', '{"error": "no such route"}'],
        [200, 'application/json', '{"status": "ok"}'],
      ] as const) {
        server = createServer((_req, res) => res.writeHead(status, { 'Content-Type': type }).end(body));
        await new Promise<void>((ok) => server!.listen(0, '127.0.0.1', ok));
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const e = await failure(NetboxApiSource.open({ url, token: TOKEN, backoffMs: 20 }));
        expect(e.failure, body).to.equal('not-netbox');
        expect(e.message).to.match(/does not answer like a NetBox API/);
        await new Promise((ok) => server!.close(ok));
        server = null;
      }
    } finally {
      server?.close();
    }
  });
});
