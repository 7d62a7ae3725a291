// `--from https://… --token …` imports what `--from postgres://…` imports: NetBox's demo database (4.2)
// with import.test.ts's additions (addresses on interfaces, a MAC address, a region scope, a decimal
// custom field with a value, a service, a tag on a circuit) is served by the fixture server as NetBox
// 4.2's REST API (test/support/netbox-api-fixture.ts, not the product) and imported through it; the
// same database is imported directly; the two stores hold the same rows, resource by resource, field by
// field. Also: the 3.7 API shape, the CLI's --token, a NetBox outside 3.7-4.2 refused in one line.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { TRUE } from '../../../engine/plan/nodes.js';
import { RESOURCES } from '../../../engine/schema/registry.js';
import { NetboxApiSource } from '../../../storage/netbox-import/api-source.js';
import { importNetbox, type ImportResult } from '../../../storage/netbox-import/import-netbox.js';
import { RowImportSource } from '../../../storage/netbox-import/row-import-source.js';
import { NetboxSource, SourceRefused, type ImportSource } from '../../../storage/netbox-import/source.js';
import { claimTarget } from '../../../storage/netbox-import/writer.js';
import { createStorage } from '../../../storage/open-storage.js';
import { testDatabaseOrSkip } from '../../../storage/test-db.js';
import type { Row, Storage } from '../../../storage/types.js';
import { NetboxApiFixture } from '../../support/netbox-api-fixture.js';
import { distPath } from '../../support/paths.js';
import { addAssignments, demoSqlPath, loadDemo, olderLayout, type NetboxDb } from './netbox-db.js';

/** A select custom field on sites whose choices are a choice set's (none in the demo), with a value on a site. */
async function addChoiceField(db: NetboxDb): Promise<void> {
  await db.sql(`INSERT INTO extras_customfieldchoiceset (created, last_updated, name, description, base_choices,
                extra_choices, order_alphabetically) VALUES (now(), now(), 'tiers', '', '',
                '{{gold,Gold},{"silver plated","Silver, \\"plated\\""}}', false)`);
  await db.sql(`INSERT INTO extras_customfield (type, name, label, description, required, filter_logic, weight,
                created, last_updated, search_weight, is_cloneable, ui_editable, ui_visible, comments, "unique",
                validation_regex, group_name, choice_set_id)
                VALUES ('select', 'tier', 'Tier', '', false, 'exact', 100, now(), now(), 1000, false, 'yes',
                'always', '', false, '', '', (SELECT max(id) FROM extras_customfieldchoiceset))`);
  await db.sql(`INSERT INTO extras_customfield_object_types (customfield_id, objecttype_id)
                SELECT max(id), (SELECT id FROM django_content_type WHERE app_label = 'dcim' AND model = 'site')
                FROM extras_customfield`);
  // NetBox gives every object of the field's types the key, null, when the field is made.
  await db.sql(`UPDATE dcim_site SET custom_field_data = custom_field_data || '{"tier": null}'`);
  await db.sql(`UPDATE dcim_site SET custom_field_data = custom_field_data || '{"tier": "silver plated"}'
                WHERE id = 2`);
}

const TOKEN = '0123456789abcdef0123456789abcdef01234567';
const CLI = distPath('storage/netbox-import/import-cli.js');
const run = (args: string[]) =>
  promisify(execFile)(process.execPath, [CLI, ...args]).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

async function integerStore(url: string): Promise<Storage> {
  const s = await createStorage(url, { idStyle: 'integer' });
  await s.open();
  return s;
}

async function importFrom(src: ImportSource, target: Storage): Promise<ImportResult> {
  try {
    const claimed = await claimTarget(target, 'the target');
    return await importNetbox(src, { target: claimed, batch: 500, pageSize: 400 });
  } finally {
    await src.close();
  }
}

const fromApi = async (fixture: NetboxApiFixture) =>
  RowImportSource.open(await NetboxApiSource.open({ url: `${fixture.url}/api/`, token: TOKEN, backoffMs: 20 }));

/** Every row of every resource, by id. */
async function everything(s: Storage): Promise<Map<string, Row[]>> {
  const out = new Map<string, Row[]>();
  for (const r of RESOURCES) {
    const rows = (await s.find(r.name, TRUE, { limit: 1_000_000, offset: 0, ordering: [] })).rows;
    out.set(
      r.name,
      [...rows].sort((a, b) => Number(a.id) - Number(b.id) || a.id.localeCompare(b.id)),
    );
  }
  return out;
}

/** The two stores hold the same rows, field by field; returns how many rows were compared. */
async function sameRows(api: Storage, db: Storage): Promise<number> {
  const [a, b] = [await everything(api), await everything(db)];
  let n = 0;
  for (const r of RESOURCES) {
    const [x, y] = [a.get(r.name)!, b.get(r.name)!];
    expect(
      x.map((row) => row.id),
      `${r.name} ids`,
    ).to.deep.equal(y.map((row) => row.id));
    x.forEach((row, i) => expect(row, `${r.name} ${row.id}`).to.deep.equal(y[i]));
    n += x.length;
  }
  return n;
}

describe('npm run import:netbox --from https://… --token …: the same import as from the database', function () {
  this.timeout(180000);
  let demo: NetboxDb | null = null;
  let fixture: NetboxApiFixture;
  const dbs: NetboxDb[] = [];
  const fixtures: NetboxApiFixture[] = [];

  before(async function () {
    const base = process.env.TEST_POSTGRES_URL;
    const file = demoSqlPath();
    if (!base || !file) return this.skip();
    demo = await loadDemo(base, file);
    dbs.push(demo);
    await addAssignments(demo);
    // NetBox keeps a null for a custom field without a value (the API shows it as null as well).
    await demo.sql(`UPDATE tenancy_tenant SET custom_field_data = '{"cust_id": null}' WHERE id = 3`);
    await addChoiceField(demo);
    fixture = await NetboxApiFixture.start({ databaseUrl: demo.url, token: TOKEN });
    fixtures.push(fixture);
  });
  after(async () => {
    for (const f of fixtures) {
      expect(
        f.requests.filter((r) => r.method !== 'GET'),
        'requests but GETs',
      ).to.deep.equal([]);
      await f.stop();
    }
    for (const db of dbs) await db.drop().catch(() => undefined);
  });

  it('into memory: every row of every resource equals the database import, field by field', async () => {
    const [viaApi, viaDb] = [await integerStore('memory:'), await integerStore('memory:')];
    const a = await importFrom(await fromApi(fixture), viaApi);
    const d = await importFrom(await NetboxSource.open(demo!.url), viaDb);
    expect(a.version).to.equal('4.2.9');
    expect(await sameRows(viaApi, viaDb)).to.be.greaterThan(3000);
    const tier = (await viaApi.find('custom_field', TRUE, { limit: 100, offset: 0, ordering: [] })).rows.find(
      (r) => r.name === 'tier',
    );
    expect(tier?.choices).to.deep.equal(['gold', 'silver plated']);
    // The same rows taken from each table (the tags on circuits, which the API does not show, are not among them).
    expect(Object.fromEntries(a.taken)).to.deep.equal(Object.fromEntries(d.taken));
    // The take/leave lines of the taken tables and of the values left agree; those of other tables the API cannot see.
    const taken = new Set(a.taken.keys());
    const key = (l: { name: string }) => taken.has(l.name.split('.')[0]!) && !l.name.startsWith('extras_taggeditem');
    const values = (r: ImportResult) => r.lines.filter((l) => key(l) && l.why !== 'no such field');
    expect(values(a)).to.deep.equal(values(d));
    // NetBox's other models (no resource here) are counted through their endpoints as the database counts their
    // tables; those the token may not read are listed uncounted.
    const others = a.lines.filter((l) => !l.name.includes('.') && l.taken === undefined && l.left !== undefined);
    expect(others.map((l) => l.name)).to.include.members(['circuits_circuit', 'ipam_vrf', 'dcim_cable', 'ipam_rir']);
    for (const l of others)
      expect(
        d.lines.find((x) => x.name === l.name),
        l.name,
      ).to.deep.equal(l);
    expect(a.lines.find((l) => l.name === 'users_token')).to.deep.equal({
      name: 'users_token',
      why: 'the token may not read it: not counted',
    });
    await viaApi.close();
    await viaDb.close();
  });

  it('into postgres: the same rows as the database import', async function () {
    const db = await testDatabaseOrSkip('postgres');
    if ('skip' in db) return this.skip();
    const [viaApi, viaDb] = [await integerStore(db.url), await integerStore('memory:')];
    try {
      if (viaApi.ids.name !== 'integer') return this.skip();
      await importFrom(await fromApi(fixture), viaApi);
      await importFrom(await NetboxSource.open(demo!.url), viaDb);
      expect(await sameRows(viaApi, viaDb)).to.be.greaterThan(3000);
    } finally {
      await viaApi.close();
      await viaDb.close();
      await db.drop();
    }
  });

  it("NetBox 3.7's API shape (sites on prefixes and clusters) imports as the 3.7-4.1 layout does", async () => {
    const old = await demo!.copy();
    dbs.push(old);
    const f37 = await NetboxApiFixture.start({ databaseUrl: demo!.url, token: TOKEN, shape: '3.7' });
    fixtures.push(f37);
    await olderLayout(old);
    const [viaApi, viaDb] = [await integerStore('memory:'), await integerStore('memory:')];
    const a = await importFrom(await fromApi(f37), viaApi);
    expect(a.version).to.equal('3.7.8');
    await importFrom(await NetboxSource.open(old.url), viaDb);
    expect(await sameRows(viaApi, viaDb)).to.be.greaterThan(3000);
    await viaApi.close();
    await viaDb.close();
  });

  it('refuses a NetBox outside 3.7-4.2 in one line, before reading a table', async () => {
    const newer = await NetboxApiFixture.start({ databaseUrl: demo!.url, token: TOKEN, version: '4.3.1' });
    fixtures.push(newer);
    const err = await fromApi(newer).catch((e: Error) => e);
    expect(err).to.be.instanceOf(SourceRefused);
    expect((err as Error).message).to.equal('the source is NetBox 4.3.1; import reads 3.7 to 4.2');
    expect(newer.requests.map((r) => new URL(r.url, 'http://x').pathname)).to.deep.equal(['/api/status/']);
    const out = await run(['--from', `${newer.url}/`, '--token', TOKEN, '--dry-run']);
    expect([out.code, out.stderr.trim()]).to.deep.equal([
      1,
      'import:netbox: the source is NetBox 4.3.1; import reads 3.7 to 4.2',
    ]);
  });

  it('the CLI: --token is needed with an http(s) --from; with it, into memory:/dir as from the database', async () => {
    const missing = await run(['--from', fixture.url, '--dry-run']);
    expect([missing.code, missing.stderr.trim()]).to.deep.equal([
      2,
      'import:netbox: --from names a NetBox API: --token TOKEN is needed (a NetBox API token that can read)',
    ]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-api-import-'));
    try {
      const out = await run(['--from', fixture.url, '--token', TOKEN, '--to', `memory:${dir}`]);
      expect(out.code, out.stderr).to.equal(0);
      expect(out.stdout).to.match(/^dcim_device +taken \d+$/m);
      expect(out.stdout).to.match(/NetBox 4\.2\.9: \d+ rows taken/);
      expect(out.stdout).to.match(/^circuits_circuit +left \d+ \(no such resource\)$/m);
      expect(out.stdout).to.match(/^users_token +left \(the token may not read it: not counted\)$/m);
      const [store, viaDb] = [await createStorage(`memory:${dir}`), await integerStore('memory:')];
      await store.open();
      await importFrom(await NetboxSource.open(demo!.url), viaDb);
      expect(await sameRows(store, viaDb)).to.be.greaterThan(3000);
      await store.close();
      await viaDb.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
