// Ansible's netbox.netbox collection (Debian's ansible package; its modules drive pynetbox) against
// the real server: a playbook of sites, regions, tags, prefixes and IP addresses (one on an interface through
// NetBox's assigned_object) runs twice, and the second run changes nothing (#17 item 10).
import { expect } from 'chai';
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { ADMIN_KEY, startServer, type TestServer } from '../../support/server.js';
import { repoPath } from '../../support/paths.js';

const playbook = repoPath('test/e2e/compat/ansible_playbook.yml');
const PYTHON = '/usr/bin/python3'; // Debian's python3-pynetbox lands in the system interpreter

/** What is missing for the test to run, or null. */
function missing(): string | null {
  if (spawnSync('ansible-playbook', ['--version'], { encoding: 'utf8' }).status !== 0)
    return 'ansible is not installed';
  if (
    !spawnSync('ansible-galaxy', ['collection', 'list', 'netbox.netbox'], { encoding: 'utf8' }).stdout?.includes(
      'netbox.netbox',
    )
  )
    return 'the netbox.netbox collection is not installed';
  if (spawnSync(PYTHON, ['-c', 'import pynetbox'], { encoding: 'utf8' }).status !== 0)
    return 'python3-pynetbox is not installed';
  return null;
}

interface TaskResult {
  readonly task: string;
  readonly changed: boolean;
  readonly failed: boolean;
  readonly skipped: boolean;
  readonly msg?: string;
}
/** The playbook's look-ups (set_fact) change nothing by nature. */
const isLookup = (t: TaskResult): boolean => t.task.startsWith('Look up');

/** One run of a playbook against `srv` (asynchronous: the server answering it runs in this very process). */
async function runPlaybook(
  file: string,
  srv: TestServer,
  temp: string,
  vars: Record<string, string> = {},
): Promise<TaskResult[]> {
  const env = {
    ...process.env,
    ANSIBLE_STDOUT_CALLBACK: 'json',
    ANSIBLE_NOCOLOR: '1',
    ANSIBLE_RETRY_FILES_ENABLED: '0',
    ANSIBLE_LOCAL_TEMP: temp,
    ANSIBLE_REMOTE_TEMP: temp,
    ANSIBLE_PYTHON_INTERPRETER: PYTHON,
  };
  const extra = Object.entries({ netbox_url: srv.url, netbox_token: ADMIN_KEY, ...vars }).flatMap(([k, v]) => [
    '-e',
    `${k}=${v}`,
  ]);
  const r = await promisify(execFile)('ansible-playbook', ['-i', 'localhost,', file, ...extra], {
    env,
    encoding: 'utf8',
    timeout: 100000,
    maxBuffer: 16 << 20,
  }).catch((e: { stdout?: string; stderr?: string }) => ({ stdout: e.stdout ?? '', stderr: e.stderr ?? '' }));
  type HostResult = { changed?: boolean; failed?: boolean; skipped?: boolean; msg?: string };
  let out: { plays: { tasks: { task: { name: string }; hosts: Record<string, HostResult> }[] }[] };
  try {
    out = JSON.parse(r.stdout);
  } catch {
    throw new Error(`ansible-playbook gave no JSON result:\n${r.stdout}\n${r.stderr}`);
  }
  return out.plays[0].tasks.map((t) => {
    const h = t.hosts.localhost;
    return { task: t.task.name, changed: !!h.changed, failed: !!h.failed, skipped: !!h.skipped, msg: h.msg };
  });
}

/** Skips the suite (or fails it in CI) when ansible, the collection or pynetbox is missing. */
function needAnsible(ctx: Mocha.Context): void {
  const why = missing();
  if (!why) return;
  if (process.env.CI) throw new Error(`${why} (.ci/run installs Debian's ansible and python3-pynetbox)`);
  console.log(`    (skipped: ${why})`);
  ctx.skip();
}

describe('Ansible netbox.netbox compatibility', function () {
  this.timeout(240000);
  let srv: TestServer;
  let temp: string;
  before(async function () {
    needAnsible(this);
    temp = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-ansible-'));
    srv = await startServer();
  });
  after(async () => {
    await srv?.close();
    if (temp) fs.rmSync(temp, { recursive: true, force: true });
  });

  const run = () => runPlaybook(playbook, srv, temp);

  it(
    'creates a tag, regions, a custom field, a tagged site, a manufacturer, device type, role, platform, a ' +
      'device, an interface, a VLAN, a prefix, an IP address, one on the interface (assigned_object), ' +
      'allocates a /24 and an address; a second run changes nothing',
    async () => {
      const first = await run();
      expect(
        first.filter((t) => t.failed),
        'failed tasks of the first run',
      ).to.deep.equal([]);
      expect(first.length).to.be.greaterThan(5);
      expect(
        first.filter((t) => !t.changed && !isLookup(t)).map((t) => t.task),
        'tasks the first run did not change',
      ).to.deep.equal([]);

      const second = await run();
      expect(
        second.filter((t) => t.failed),
        'failed tasks of the second run',
      ).to.deep.equal([]);
      expect(
        second.filter((t) => t.changed).map((t) => t.task),
        'tasks the second run changed',
      ).to.deep.equal([]);
      // The allocations found what the first run allocated.
      expect(second.filter((t) => t.skipped).map((t) => t.task)).to.deep.equal([
        'First available /24 in the site block',
        'Next free address of the /24',
      ]);

      // What the playbook asked for, as the API shows it.
      const one = async (p: string) => {
        const res = await srv.req('GET', p);
        expect(res.body.count, p).to.equal(1);
        return res.body.results[0];
      };
      const tag = await one('/api/extras/tags/?slug=ansible-managed');
      expect(tag).to.include({ name: 'Ansible managed', color: '00ff00' });
      const europe = await one('/api/dcim/regions/?slug=europe');
      expect((await one('/api/dcim/regions/?slug=netherlands')).parent.id).to.equal(europe.id);
      const site = await one('/api/dcim/sites/?slug=ams1');
      expect(site).to.include({ name: 'AMS1', asn: 65001, facility: 'Equinix AM3' });
      expect(site.status.value).to.equal('active');
      expect(site.region.slug).to.equal('netherlands');
      expect(site.tags.map((t: { slug: string }) => t.slug)).to.deep.equal(['ansible-managed']);
      expect(site.custom_fields).to.deep.equal({ rack_count: 4 });
      const juniper = await one('/api/dcim/manufacturers/?slug=juniper');
      const mx204 = await one('/api/dcim/device-types/?slug=mx204');
      expect(mx204.manufacturer.id).to.equal(juniper.id);
      expect((await one('/api/dcim/device-roles/?slug=core-router')).color).to.equal('ff0000');
      const junos = await one('/api/dcim/platforms/?slug=junos');
      expect(junos.manufacturer.id).to.equal(juniper.id);
      const device = await one('/api/dcim/devices/?name=ams1-r1');
      expect(device.site.id).to.equal(site.id);
      expect(device.device_type.id).to.equal(mx204.id);
      expect(device.platform.id).to.equal(junos.id);
      // The collection writes the role as NetBox 3.6's `device_role`.
      expect(device.role.slug).to.equal('core-router');
      expect(device.status.value).to.equal('planned');
      // Its second run read the device's virtual_chassis (null) and changed nothing.
      const iface = await one(`/api/dcim/interfaces/?device_id=${device.id}`);
      expect(iface.name).to.equal('et-0/0/0');
      expect(iface.type.value).to.equal('10gbase-x-sfpp');
      const vlan = await one('/api/ipam/vlans/?vid=100');
      expect(vlan.site.id).to.equal(site.id);
      const prefix = await one('/api/ipam/prefixes/?prefix=10.10.0.0/16');
      expect(prefix.site.id).to.equal(site.id);
      expect(prefix.vlan.id).to.equal(vlan.id);
      expect(prefix.tags.map((t: { slug: string }) => t.slug)).to.deep.equal(['ansible-managed']);
      const ip = await one('/api/ipam/ip-addresses/?address=10.10.0.1/16');
      expect(ip).to.include({ dns_name: 'gw.ams1.example.net' });
      expect(ip.status.value).to.equal('active');
      // Written as NetBox's assigned_object_type / assigned_object_id; found again by them on the second run.
      const onIface = await one('/api/ipam/ip-addresses/?address=10.20.0.1/24');
      expect(onIface).to.include({ assigned_object_type: 'dcim.interface', assigned_object_id: iface.id });
      expect(onIface.interface.id).to.equal(iface.id);
      // Allocated in NetBox's order: the first /24 of the block; in it, the first address that is
      // neither the network address nor taken (10.10.0.1 is, by the /16 address above).
      const pool = await one('/api/ipam/prefixes/?within=10.10.0.0/16&mask_length=24');
      expect(pool).to.include({ prefix: '10.10.0.0/24', description: 'pool a' });
      expect(pool.site.id).to.equal(site.id);
      const host = await one('/api/ipam/ip-addresses/?dns_name=host1.ams1.example.net');
      expect(host.address).to.equal('10.10.0.2/24');
    },
  );
});

// The modules #36 names, on an integer store, as against NetBox: no query_params; each made, made again
// unchanged, then deleted.
describe('Ansible netbox.netbox modules on an integer store', function () {
  this.timeout(300000);
  const integerPlaybook = repoPath('test/e2e/compat/ansible_integer_playbook.yml');
  const UNDER_TEST = [
    'netbox_site',
    'netbox_device',
    'netbox_device_interface',
    'netbox_vlan',
    'netbox_prefix',
    'netbox_ip_address',
    'netbox_vm_interface',
    'netbox_ip_address on the VM',
  ];
  let srv: TestServer;
  let temp: string;
  before(async function () {
    needAnsible(this);
    temp = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-ansible-int-'));
    srv = await startServer({ idStyle: 'integer', demoData: false });
  });
  after(async () => {
    await srv?.close();
    if (temp) fs.rmSync(temp, { recursive: true, force: true });
  });
  const run = (wanted: 'present' | 'absent') => runPlaybook(integerPlaybook, srv, temp, { wanted });
  const made = (tasks: TaskResult[]) => tasks.filter((t) => !t.skipped && UNDER_TEST.includes(t.task));
  const one = async (p: string) => {
    const res = await srv.req('GET', p);
    expect(res.body.count, p).to.equal(1);
    return res.body.results[0];
  };

  it('creates each object, a second run changes nothing, and state: absent deletes each', async () => {
    const first = await run('present');
    expect(first.filter((t) => t.failed).map((t) => `${t.task}: ${t.msg}`)).to.deep.equal([]);
    expect(made(first).map((t) => [t.task, t.changed])).to.deep.equal(UNDER_TEST.map((t) => [t, true]));

    const site = await one('/api/dcim/sites/?slug=int1');
    expect(site.id).to.be.a('number');
    const device = await one('/api/dcim/devices/?name=int1-r1');
    expect(device.site.id).to.equal(site.id);
    expect(device.role.slug).to.equal('leaf');
    const iface = await one(`/api/dcim/interfaces/?device_id=${device.id}`);
    expect((await one('/api/ipam/vlans/?vid=200')).site.id).to.equal(site.id);
    expect((await one('/api/ipam/prefixes/?prefix=10.30.0.0/24')).site.id).to.equal(site.id);
    const ip = await one('/api/ipam/ip-addresses/?address=10.30.0.1/24');
    expect(ip).to.include({ assigned_object_type: 'dcim.interface', assigned_object_id: iface.id });
    const vmIface = await one('/api/virtualization/interfaces/?name=eth0');
    const vmIp = await one('/api/ipam/ip-addresses/?address=10.30.0.2/24');
    expect(vmIp).to.include({ assigned_object_type: 'virtualization.vminterface', assigned_object_id: vmIface.id });

    const second = await run('present');
    expect(second.filter((t) => t.failed).map((t) => `${t.task}: ${t.msg}`)).to.deep.equal([]);
    expect(
      second.filter((t) => t.changed).map((t) => t.task),
      'changed by the second run',
    ).to.deep.equal([]);

    const gone = await run('absent');
    expect(gone.filter((t) => t.failed).map((t) => `${t.task}: ${t.msg}`)).to.deep.equal([]);
    expect(
      made(gone).every((t) => t.changed),
      JSON.stringify(made(gone)),
    ).to.equal(true);
    for (const p of [
      '/api/dcim/sites/?slug=int1',
      '/api/dcim/devices/?name=int1-r1',
      '/api/virtualization/interfaces/?name=eth0',
      '/api/ipam/vlans/?vid=200',
      '/api/ipam/prefixes/?prefix=10.30.0.0/24',
      '/api/ipam/ip-addresses/?parent=10.30.0.0/24',
    ])
      expect((await srv.req('GET', p)).body.count, p).to.equal(0);
  });
});
