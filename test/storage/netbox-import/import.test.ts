// npm run import:netbox against NetBox's public demo database (NetBox 4.2), loaded once into a
// fresh PostgreSQL database with addresses assigned to interfaces: the take/leave table agrees with
// counts read from the source with SQL; an import into each backend keeps every taken row with its
// id, fields, references, tags and custom field values; the filters answer as NetBox's SQL; the
// 3.7-4.1 layout imports the same; refusals leave the target as it was; a failed import is undone;
// the counters continue after the imported ids.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { isNull, TRUE, type Plan } from '../../../engine/plan/nodes.js';
import { planQuery } from '../../../engine/plan/planner.js';
import { parseQuery } from '../../../engine/query/parse.js';
import { RESOURCES, resource } from '../../../engine/schema/registry.js';
import { importNetbox, type ImportResult } from '../../../storage/netbox-import/import-netbox.js';
import { NetboxSource, SourceRefused } from '../../../storage/netbox-import/source.js';
import { claimTarget, TargetRefused } from '../../../storage/netbox-import/writer.js';
import { createStorage } from '../../../storage/open-storage.js';
import { TEST_DB_KINDS, testDatabaseOrSkip } from '../../../storage/test-db.js';
import { StorageConflict, type Row, type Storage } from '../../../storage/types.js';
import { distPath } from '../../support/paths.js';
import { compareWithSource } from './compare.js';
import { addAssignments, demoSqlPath, emptyDb, loadDemo, olderLayout, type NetboxDb } from './netbox-db.js';

const STORE_KINDS = ['memory', ...TEST_DB_KINDS] as const;
const CLI = distPath('storage/netbox-import/import-cli.js');
const run = (args: string[]) =>
  promisify(execFile)(process.execPath, [CLI, ...args]).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

/** An integer store at `url`. */
async function integerStore(url: string): Promise<Storage> {
  const s = await createStorage(url, { idStyle: 'integer' });
  await s.open();
  return s;
}

async function total(s: Storage): Promise<number> {
  let n = 0;
  for (const r of RESOURCES) n += (await s.find(r.name, TRUE, { limit: 1, offset: 0, ordering: [] })).count;
  return n;
}

/** Every row of every resource, with its resource's name. */
async function everyRow(s: Storage): Promise<Row[]> {
  const out: Row[] = [];
  for (const r of RESOURCES)
    for (const row of (await s.find(r.name, TRUE, { limit: 1_000_000, offset: 0, ordering: [] })).rows)
      out.push({ ...row, resource: r.name });
  return out;
}

async function importInto(db: NetboxDb, target: Storage | null, progress?: (l: string) => void): Promise<ImportResult> {
  const src = await NetboxSource.open(db.url);
  try {
    const claimed = target && (await claimTarget(target, 'the target'));
    return await importNetbox(src, { target: claimed, batch: 500, pageSize: 400, progressFrom: 1000, progress });
  } finally {
    await src.close();
  }
}

function plan(name: string, query: string): Plan {
  const p = planQuery(resource(name), parseQuery(new URLSearchParams(query)), { strict: true, customFields: [] });
  expect(p.errors).to.deep.equal({});
  return p.plan;
}

const ids = async (s: Storage, name: string, p: Plan) =>
  (await s.find(name, p, { limit: 100000, offset: 0, ordering: [] })).rows.map((r) => r.id).sort();

describe('npm run import:netbox: a NetBox database into a store, keeping its ids', function () {
  this.timeout(120000);
  let demo: NetboxDb | null = null;
  const dbs: NetboxDb[] = [];

  before(async function () {
    const base = process.env.TEST_POSTGRES_URL;
    const file = demoSqlPath();
    if (!base || !file) return this.skip();
    demo = await loadDemo(base, file);
    dbs.push(demo);
    await addAssignments(demo);
  });
  after(async () => {
    for (const db of dbs) await db.drop().catch(() => undefined);
  });

  const copyOfDemo = async () => {
    const db = await demo!.copy();
    dbs.push(db);
    return db;
  };

  it('--dry-run (no target) prints one line per NetBox table with counts read from the source', async () => {
    const out = await run(['--from', demo!.url, '--dry-run']);
    expect(out.code, out.stderr).to.equal(0);
    const lines = out.stdout.split('\n');
    const line = (name: string) => lines.find((l) => l.startsWith(`${name} `))?.replace(/\s+/g, ' ');
    const count = async (t: string) => Number((await demo!.sql(`SELECT count(*) AS n FROM ${t}`))[0].n);
    for (const t of ['dcim_site', 'dcim_device', 'dcim_interface', 'ipam_prefix', 'ipam_vlan', 'tenancy_tenant'])
      expect(line(t)).to.equal(`${t} taken ${await count(t)}`);
    expect(line('circuits_circuit')).to.equal(
      `circuits_circuit left ${await count('circuits_circuit')} (no such resource)`,
    );
    expect(line('ipam_vrf')).to.equal(`ipam_vrf left ${await count('ipam_vrf')} (no such resource)`);
    const tagsOff = Number(
      (
        await demo!.sql(`SELECT count(*) AS n FROM extras_taggeditem i JOIN django_content_type c
          ON c.id = i.content_type_id WHERE c.app_label = 'circuits'`)
      )[0].n,
    );
    expect(line('extras_taggeditem')).to.equal(
      `extras_taggeditem taken ${(await count('extras_taggeditem')) - tagsOff}, ` +
        `left ${tagsOff} (on circuits_circuit, not taken)`,
    );
    expect(line('extras_customfield')).to.equal('extras_customfield taken 1, left 1 (of type decimal)');
    expect(line('extras_customfield_object_types')).to.equal(
      'extras_customfield_object_types taken 1, left 1 (of custom fields left, or object types not taken)',
    );
    expect(line('ipam_service')).to.equal(`ipam_service taken ${await count('ipam_service')}`);
    const airflow = Number(
      (await demo!.sql(`SELECT count(*) AS n FROM dcim_device WHERE airflow IS NOT NULL AND airflow <> ''`))[0].n,
    );
    expect(line('dcim_device.airflow')).to.equal(`dcim_device.airflow left (${airflow} set)`);
    expect(line('ipam_prefix.scope')).to.equal('ipam_prefix.scope left 1 (scoped to dcim.region)');
    expect(line('ipam_ipaddress.assigned_object')).to.equal(
      'ipam_ipaddress.assigned_object left 1 (assigned to ipam.fhrpgroup)',
    );
    expect(line('dcim_site.custom_field_data')).to.equal(
      'dcim_site.custom_field_data left 1 (a value of a custom field left)',
    );
    expect(out.stdout).to.match(/NetBox 4\.2: \d+ rows would be taken \(dry run\)/);
  });

  it('into memory: each taken row with its id, fields, references, tags, custom field values; <= 5 s', async () => {
    const store = await integerStore('memory:');
    const t0 = performance.now();
    const progress: string[] = [];
    const result = await importInto(demo!, store, (l) => progress.push(l));
    expect(performance.now() - t0).to.be.below(5000);
    // A table of at least `progressFrom` rows says how far it got (read 400 rows a page here, so in several steps).
    const ifaces = Number((await demo!.sql(`SELECT count(*) AS n FROM dcim_interface`))[0].n);
    expect(progress.filter((l) => l.startsWith('dcim_interface:')).pop()).to.equal(
      `dcim_interface: ${ifaces} of ${ifaces} rows (100%)`,
    );
    expect(progress.filter((l) => l.startsWith('dcim_interface:')).length).to.be.greaterThan(2);
    expect(progress.some((l) => l.startsWith('dcim_site:'))).to.equal(false);
    expect(result.version).to.equal('4.2');
    const checked = await compareWithSource(demo!, store);
    expect(checked).to.be.greaterThan(3000);
    // What the product refused before and NetBox accepts: devices without a name, NetBox 4.2's interface types.
    const unnamed = Number((await demo!.sql(`SELECT count(*) AS n FROM dcim_device WHERE name IS NULL`))[0].n);
    expect(unnamed).to.be.greaterThan(0);
    expect((await store.find('device', isNull('name'), { limit: 1, offset: 0, ordering: [] })).count).to.equal(unnamed);
    // A device's primary IP came in the second pass, with the derived primary_ip.
    const [d] = await demo!.sql<{ id: string; ip: string }>(
      `SELECT id::text, primary_ip4_id::text AS ip FROM dcim_device
       WHERE primary_ip4_id IS NOT NULL ORDER BY id LIMIT 1`,
    );
    const dev = (await store.get('device', d.id))!;
    expect([dev.primary_ip4, dev.primary_ip]).to.deep.equal([d.ip, d.ip]);
    await store.close();
  });

  it('the filters answer as NetBox SQL on the imported data (within as <<, tag, status)', async () => {
    const store = await integerStore('memory:');
    await importInto(demo!, store);
    const prefixes = await demo!.sql<{ prefix: string }>(`SELECT DISTINCT prefix::text FROM ipam_prefix ORDER BY 1`);
    for (const { prefix } of prefixes) {
      const want = (
        await demo!.sql<{ id: string }>(`SELECT id::text FROM ipam_prefix WHERE prefix << $1::cidr`, [prefix])
      ).map((r) => r.id);
      expect(await ids(store, 'prefix', plan('prefix', `within=${prefix}`)), prefix).to.deep.equal(want.sort());
    }
    const tagged = await demo!.sql<{ slug: string; id: string }>(
      `SELECT t.slug, i.object_id::text AS id FROM extras_taggeditem i JOIN extras_tag t ON t.id = i.tag_id
       JOIN django_content_type c ON c.id = i.content_type_id WHERE c.app_label = 'dcim' AND c.model = 'site'`,
    );
    for (const slug of new Set(tagged.map((t) => t.slug)))
      expect(await ids(store, 'site', plan('site', `tag=${slug}`))).to.deep.equal(
        tagged
          .filter((t) => t.slug === slug)
          .map((t) => t.id)
          .sort(),
      );
    const active = await demo!.sql<{ id: string }>(`SELECT id::text FROM ipam_ipaddress WHERE status = 'active'`);
    expect(await ids(store, 'ip_address', plan('ip_address', 'status=active'))).to.deep.equal(
      active.map((r) => r.id).sort(),
    );
    await store.close();
  });

  it('the 3.7-4.1 layout (prefixes and clusters with site_id, MACs on the interfaces) imports the same', async () => {
    const old = await copyOfDemo();
    await olderLayout(old);
    const store = await integerStore('memory:');
    const result = await importInto(old, store);
    expect(result.version).to.equal('4.1');
    await compareWithSource(old, store);
    await store.close();
  });

  it('refuses a target that holds objects, and leaves it as it was', async () => {
    const store = await integerStore('memory:');
    await importInto(demo!, store);
    const before = await total(store);
    const err = await importInto(demo!, store).catch((e: Error) => e);
    expect(err).to.be.instanceOf(TargetRefused);
    expect((err as Error).message).to.match(/already holds objects: tag \(\d+\)/);
    expect(await total(store)).to.equal(before);
    await store.close();
  });

  it('refuses a uuid store in one line, before writing', async () => {
    const store = await createStorage('memory:'); // a uuid store: the default style
    await store.open();
    const err = await importInto(demo!, store).catch((e: Error) => e);
    expect(err).to.be.instanceOf(TargetRefused);
    expect((err as Error).message).to.match(/is a uuid store; .* needs a new or empty integer store/);
    expect(await total(store)).to.equal(0);
    await store.close();
  });

  it('refuses a database that is not NetBox, or a NetBox outside 3.7-4.2, in one line', async () => {
    const empty = await emptyDb(process.env.TEST_POSTGRES_URL!);
    dbs.push(empty);
    const out = await run(['--from', empty.url, '--dry-run']);
    expect(out.code).to.equal(1);
    expect(out.stderr.trim().split('\n')).to.deep.equal([
      'import:netbox: the source is not a NetBox database (it has no table django_migrations, django_content_type, ' +
        'dcim_site, dcim_device, ipam_prefix)',
    ]);
    const newer = await copyOfDemo();
    await newer.sql(`INSERT INTO django_migrations (app, name, applied) VALUES ('dcim', '0201_future', now())`);
    // A later migration alone may be a 4.2 patch release's: 4.3 is told by its layout too (a service's parent object).
    const patch = await NetboxSource.open(newer.url);
    expect(patch.version).to.equal('4.2');
    await patch.close();
    await newer.sql(`ALTER TABLE ipam_service ADD COLUMN parent_object_id bigint`);
    const err = await NetboxSource.open(newer.url).catch((e: Error) => e);
    expect(err).to.be.instanceOf(SourceRefused);
    expect((err as Error).message).to.equal(
      'the source is NetBox 4.3 or later (dcim migration 201); import reads 3.7 to 4.2',
    );
    const missing = await run(['--to', 'memory:/tmp/x']);
    expect([missing.code, missing.stderr.trim()]).to.deep.equal([
      2,
      'import:netbox: missing --from URL (--help lists the options)',
    ]);
  });

  it('all or nothing: an import that fails part-way leaves the target empty', async () => {
    // NetBox takes two devices of one name at a site with different tenants; the product's (site, name) does not.
    const clash = await copyOfDemo();
    await clash.sql(
      `UPDATE dcim_device SET name = 'twin', tenant_id = NULL WHERE id = (SELECT min(id) FROM dcim_device)`,
    );
    await clash.sql(`UPDATE dcim_device SET name = 'twin', tenant_id = (SELECT min(id) FROM tenancy_tenant),
      site_id = (SELECT site_id FROM dcim_device ORDER BY id LIMIT 1), rack_id = NULL, location_id = NULL
      WHERE id = (SELECT id FROM dcim_device ORDER BY id OFFSET 1 LIMIT 1)`);
    const store = await integerStore('memory:');
    const err = await importInto(clash, store).catch((e: Error) => e);
    expect(err).to.be.instanceOf(StorageConflict); // refused by the store, after the batches before devices

    expect(await total(store)).to.equal(0);
    await store.close();
  });

  /** Two handles on one store (two processes on one database); memory: one handle, shared. */
  async function twoHandles(
    kind: 'memory' | (typeof TEST_DB_KINDS)[number],
  ): Promise<{ a: Storage; b: Storage; done: () => Promise<void> } | null> {
    if (kind === 'memory') {
      const a = await integerStore('memory:');
      return { a, b: a, done: () => a.close() };
    }
    const db = await testDatabaseOrSkip(kind);
    if ('skip' in db) return null;
    const [a, b] = [await integerStore(db.url), await integerStore(db.url)];
    return { a, b, done: async () => (await Promise.all([a.close(), b.close()]), await db.drop()) };
  }

  for (const kind of STORE_KINDS)
    it(`${kind}: two imports into one empty store at once: one takes it, the other is refused`, async function () {
      const h = await twoHandles(kind);
      if (!h) return this.skip();
      try {
        const [x, y] = await Promise.allSettled([importInto(demo!, h.a), importInto(demo!, h.b)]);
        const refused = [x, y].filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
        expect(refused.length, String(refused[0]?.message)).to.equal(1);
        expect(refused[0]).to.be.instanceOf(TargetRefused);
        expect(refused[0].message).to.match(/is running or did not finish|already holds objects/);
        await compareWithSource(demo!, h.a);
      } finally {
        await h.done();
      }
    });

  for (const kind of STORE_KINDS)
    it(`${kind}: a failed import's undo takes away its own rows only`, async function () {
      const h = await twoHandles(kind);
      if (!h) return this.skip();
      const src = await NetboxSource.open(demo!.url);
      try {
        const claimed = await claimTarget(h.a, 'the target');
        // Written by someone else (a server already running on the store) after the claim, under an id NetBox's tags
        // have too: the import's batch of tags is refused, and its undo must not delete the row holding that id.
        const now = new Date().toISOString();
        const [id] = await h.b.newIds('tag', 1);
        const row = { id, created: now, last_updated: now, version: 1, name: 'Foreign', slug: 'foreign' };
        await h.b.apply([{ op: 'create', resource: 'tag', row: { ...row, color: '9e9e9e', description: '' } }]);
        const err = await importNetbox(src, { target: claimed, batch: 500, pageSize: 400 }).catch((e: Error) => e);
        expect(err).to.be.instanceOf(StorageConflict);
        const left = await everyRow(h.a);
        expect(left.map((r) => `${r.resource} ${r.resource === 'tag' ? String(r.slug) : ''}`)).to.deep.equal([
          'tag foreign',
          'object_change ',
        ]);
        expect(await claimTarget(h.a, 'the target').catch((e: Error) => e.message)).to.match(
          /already holds objects: tag \(1\)/,
        );
      } finally {
        await src.close();
        await h.done();
      }
    });

  it('the CLI into memory:/dir: the store holds the import after a restart', async function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-import-'));
    try {
      const out = await run(['--from', demo!.url, '--to', `memory:${dir}`]);
      expect(out.code, out.stderr).to.equal(0);
      expect(out.stdout).to.match(/^dcim_device +taken \d+$/m);
      const store = await createStorage(`memory:${dir}`);
      await store.open();
      try {
        expect(store.ids.name).to.equal('integer');
        await compareWithSource(demo!, store);
      } finally {
        await store.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the counters continue after the imported ids', async function () {
    const store = await createStorage('memory:', { idStyle: 'integer' });
    await store.open();
    await importInto(demo!, store);
    const [{ max }] = await demo!.sql<{ max: string }>(`SELECT max(id)::text AS max FROM dcim_site`);
    const [next] = await store.newIds('site', 1);
    expect(Number(next)).to.be.greaterThan(Number(max));
    await store.close();
  });

  for (const kind of TEST_DB_KINDS)
    it(`into ${kind}: every taken row as in the source; the counters continue; in <= 5 s`, async function () {
      const db = await testDatabaseOrSkip(kind);
      if ('skip' in db) return this.skip();
      const store = await createStorage(db.url, { idStyle: 'integer' });
      try {
        await store.open();
        expect(store.ids.name).to.equal('integer');
        const t0 = performance.now();
        await importInto(demo!, store);
        expect(performance.now() - t0).to.be.below(5000);
        await compareWithSource(demo!, store);
        const [{ max }] = await demo!.sql<{ max: string }>(`SELECT max(id)::text AS max FROM ipam_prefix`);
        expect(Number((await store.newIds('prefix', 1))[0])).to.be.greaterThan(Number(max));
      } finally {
        await store.close();
        await db.drop();
      }
    });
});
