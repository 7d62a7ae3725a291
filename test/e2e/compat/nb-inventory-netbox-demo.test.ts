// Ansible's dynamic inventory over a NetBox moved in (#36 item 5): NetBox's public demo database
// (../shared/netbox-demo, NetBox 4.2) imported with `npm run import:netbox` into an integer store,
// the server started on it, and `ansible-inventory` through netbox.netbox.nb_inventory lists every
// device and virtual machine, the devices at grouped sites in their site groups and the virtual
// machines in their clusters, as the source database says.
import { expect } from 'chai';
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ADMIN_KEY, startServer, type TestServer } from '../../support/server.js';
import { distPath } from '../../support/paths.js';
import { demoSqlPath, loadDemo, type NetboxDb } from '../../storage/netbox-import/netbox-db.js';

type Obj = Record<string, any>;

function missing(): string | null {
  if (!process.env.TEST_POSTGRES_URL) return 'TEST_POSTGRES_URL is not set (the demo loads into PostgreSQL)';
  if (!demoSqlPath()) return 'the NetBox demo database (../shared/netbox-demo) is not there';
  if (spawnSync('ansible-inventory', ['--version'], { encoding: 'utf8' }).status !== 0)
    return 'ansible is not installed';
  return null;
}

const config = (url: string) =>
  [
    'plugin: netbox.netbox.nb_inventory',
    `api_endpoint: ${url}`,
    `token: ${ADMIN_KEY}`,
    'validate_certs: false',
    // Site groups hold the groups of their sites (and those of their locations): `sites` is needed beside them.
    'group_by: [sites, site_group, cluster]',
    'compose: {nb_id: id}',
    '',
  ].join('\n');

describe('nb_inventory over the NetBox demo database, imported into an integer store', function () {
  this.timeout(300000);
  let demo: NetboxDb | null = null;
  let srv: TestServer | null = null;
  let temp = '';
  before(async function () {
    const why = missing();
    if (why) {
      if (process.env.CI) throw new Error(why);
      console.log(`    (skipped: ${why})`);
      this.skip();
    }
    temp = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-nbdemo-'));
    demo = await loadDemo(process.env.TEST_POSTGRES_URL!, demoSqlPath()!);
    const store = `memory:${path.join(temp, 'store')}`;
    await promisify(execFile)(process.execPath, [
      distPath('storage/netbox-import/import-cli.js'),
      '--from',
      demo.url,
      '--to',
      store,
    ]);
    srv = await startServer({ storage: store, demoData: false });
  });
  after(async () => {
    await srv?.close();
    await demo?.drop();
    if (temp) fs.rmSync(temp, { recursive: true, force: true });
  });

  it('lists all 72 devices (under 70 host names) and 180 VMs, in their site groups and clusters', async () => {
    const file = path.join(temp, 'netbox.yml');
    fs.writeFileSync(file, config(srv!.url));
    const env = {
      ...process.env,
      ANSIBLE_LOCAL_TEMP: temp,
      ANSIBLE_NOCOLOR: '1',
      ANSIBLE_INVENTORY_UNPARSED_FAILED: '1',
    };
    const r = await promisify(execFile)('ansible-inventory', ['-i', file, '--list'], {
      env,
      encoding: 'utf8',
      timeout: 240000,
      maxBuffer: 256 << 20,
    });
    const inventory: Obj = JSON.parse(r.stdout.slice(r.stdout.indexOf('{')));
    const hostvars: Obj = inventory._meta.hostvars;
    const hosts = Object.values(hostvars);
    const devices = hosts.filter((h) => h.is_virtual === false);
    const vms = hosts.filter((h) => h.is_virtual === true);
    // The source's counts, not numbers written here (NetBox's ids are bigint: pg reads them as text).
    const [{ n: deviceCount }] = await demo!.sql<{ n: number }>('SELECT count(*)::int AS n FROM dcim_device');
    const [{ n: vmCount }] = await demo!.sql<{ n: number }>(
      'SELECT count(*)::int AS n FROM virtualization_virtualmachine',
    );
    expect([deviceCount, vmCount]).to.deep.equal([72, 180]);
    expect(vms.length, 'virtual machines listed').to.equal(vmCount);
    // Ansible names a host by its device's name (an unnamed one by a random UUID): devices that share a
    // name (the demo's three "PP:MDF", at three sites) are one host, as they are against NetBox itself.
    // Every device is listed, by its own id or under its name.
    const source = await demo!.sql<{ id: number; name: string | null }>('SELECT id, name FROM dcim_device');
    const [{ n: hostnames }] = await demo!.sql<{ n: number }>(
      'SELECT (count(DISTINCT name) + count(*) FILTER (WHERE name IS NULL))::int AS n FROM dcim_device',
    );
    expect(devices.length, 'device hosts listed').to.equal(hostnames);
    const listedIds = new Set(devices.map((h) => h.nb_id as number));
    for (const d of source)
      expect(
        listedIds.has(Number(d.id)) || (d.name !== null && d.name in hostvars),
        `device ${d.id} (${d.name})`,
      ).to.equal(true);

    // The NetBox ids of the hosts in a group or in any group below it.
    const members = (group: string, out = new Set<number>()): Set<number> => {
      for (const h of inventory[group]?.hosts ?? []) out.add(hostvars[h].nb_id);
      for (const child of inventory[group]?.children ?? []) members(child, out);
      return out;
    };
    // Devices at a site with a group are in that group's inventory group, by NetBox id.
    const grouped = await demo!.sql<{ id: number; slug: string }>(
      `SELECT d.id, g.slug FROM dcim_device d JOIN dcim_site s ON s.id = d.site_id
       JOIN dcim_sitegroup g ON g.id = s.group_id`,
    );
    expect(grouped.length).to.be.greaterThan(0);
    for (const { id, slug } of grouped)
      expect(members(`site_group_${slug}`).has(Number(id)), `device ${id} in ${slug}`).to.equal(true);
    // Virtual machines are in their cluster's group.
    const clustered = await demo!.sql<{ id: number; name: string }>(
      `SELECT v.id, c.name FROM virtualization_virtualmachine v JOIN virtualization_cluster c ON c.id = v.cluster_id`,
    );
    expect(clustered.length).to.be.greaterThan(0);
    // Group names as the plugin makes them (Ansible warns of their characters but keeps them).
    const groupName = (name: string) => `cluster_${name}`;
    for (const { id, name } of clustered)
      expect(members(groupName(name)).has(Number(id)), `vm ${id} in ${name}`).to.equal(true);
  });
});
