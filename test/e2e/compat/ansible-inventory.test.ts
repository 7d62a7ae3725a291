// Ansible's dynamic inventory (the netbox.netbox.nb_inventory plugin of Debian's ansible package)
// against the real server on memory, PostgreSQL and MariaDB: `ansible-inventory --list` over the
// demo data plus hosts made here, grouped by sites, roles, platforms, tenants, racks, locations,
// clusters, device types and manufacturers (a device type's brief form nests its manufacturer),
// narrowed by a tree filter (site_group) and with composed variables. Every host must land in
// exactly the groups its object names, with its primary IP as ansible_host.
import { expect } from 'chai';
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { BACKENDS } from '../conformance/backends.js';
import { ADMIN_KEY, startServer, type TestServer } from '../../support/server.js';

type Obj = Record<string, any>;

function missing(): string | null {
  if (spawnSync('ansible-inventory', ['--version'], { encoding: 'utf8' }).status !== 0)
    return 'ansible is not installed';
  if (
    !spawnSync('ansible-doc', ['-t', 'inventory', '-l'], { encoding: 'utf8' }).stdout?.includes(
      'netbox.netbox.nb_inventory',
    )
  )
    return 'the netbox.netbox collection is not installed';
  return null;
}

/** The plugin's configuration: what an Ansible user writes. */
export function inventoryConfig(url: string, token: string): string {
  return [
    'plugin: netbox.netbox.nb_inventory',
    `api_endpoint: ${url}`,
    `token: ${token}`,
    'validate_certs: false',
    'group_by: [sites, device_roles, platforms, tenants, racks, location, cluster, device_types, manufacturers]',
    'query_filters:',
    '  - site_group: backbone',
    'compose:',
    '  tenant_slug: "tenant.slug if tenant else \'none\'"',
    '  nb_site: site.slug',
    '',
  ].join('\n');
}

/**
 * `ansible-inventory --list` through the plugin (asynchronous: the server answering it may run in this very process).
 */
export async function ansibleInventory(
  url: string,
  token: string,
  temp: string,
): Promise<{ inventory: Obj; fetched: string[] }> {
  const file = path.join(temp, 'netbox.yml');
  fs.writeFileSync(file, inventoryConfig(url, token));
  // A fresh local temp per run: the plugin caches the OpenAPI document there by API version.
  const env = {
    ...process.env,
    ANSIBLE_LOCAL_TEMP: temp,
    ANSIBLE_NOCOLOR: '1',
    ANSIBLE_INVENTORY_UNPARSED_FAILED: '1',
  };
  const r = await promisify(execFile)('ansible-inventory', ['-i', file, '--list', '-v'], {
    env,
    encoding: 'utf8',
    timeout: 240000,
    maxBuffer: 256 << 20,
  }).catch((e: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`ansible-inventory failed: ${e.message}\n${e.stderr ?? ''}`);
  });
  const fetched = [...r.stdout.matchAll(/^Fetching: (\S+)/gm), ...r.stderr.matchAll(/^Fetching: (\S+)/gm)].map(
    (m) => m[1],
  );
  const start = r.stdout.indexOf('{');
  return { inventory: JSON.parse(r.stdout.slice(start)), fetched };
}

/** Every page of a list. */
async function all(srv: TestServer, p: string): Promise<Obj[]> {
  const out: Obj[] = [];
  for (let next: string | null = `${p}${p.includes('?') ? '&' : '?'}limit=1000`; next;) {
    const res = await srv.req('GET', next.replace(srv.url, ''));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    out.push(...res.body.results);
    next = res.body.next;
  }
  return out;
}

/** The groups the plugin puts a host in directly, from the object as the API serves it. */
function expectedGroups(h: Obj): string[] {
  return [
    h.location ? `location_${h.location.slug}` : `sites_${h.site.slug}`,
    h.role && `device_roles_${h.role.slug}`,
    h.platform && `platforms_${h.platform.slug}`,
    h.tenant && `tenants_${h.tenant.slug}`,
    h.rack && `racks_${h.rack.name}`,
    h.cluster && `cluster_${h.cluster.name}`,
    h.device_type && `device_types_${h.device_type.slug}`,
    h.device_type && `manufacturers_${h.device_type.manufacturer.slug}`,
  ]
    .filter(Boolean)
    .sort();
}

const bare = (ip: Obj | null) => (ip ? String(ip.address).split('/')[0] : undefined);

/**
 * Hosts the demo data does not have: a nested location, IPv6 first, no primary IP, a VM without a cluster, and hosts
 * the filter leaves out.
 */
async function addHosts(srv: TestServer): Promise<void> {
  const one = async (p: string) => {
    const r = await srv.req('GET', p);
    expect(r.body.count, p).to.equal(1);
    return r.body.results[0];
  };
  const made = async (p: string, body: Obj) => {
    const r = await srv.req('POST', p, body);
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    return r.body;
  };
  const ams = await one('/api/dcim/sites/?slug=ams-core-01');
  const fra = await one('/api/dcim/sites/?slug=fra-core-01');
  const hall = await one(`/api/dcim/locations/?slug=ams-core-01-a-hall-1`);
  const cage = await made('/api/dcim/locations/', {
    name: 'Cage 7',
    slug: 'ams-core-01-cage-7',
    site: ams.id,
    parent: hall.id,
  });
  const [rack] = (await srv.req('GET', `/api/dcim/racks/?location_id=${hall.id}&name=ams-core-01-r02`)).body.results;
  const acme = await one('/api/tenancy/tenants/?slug=acme');
  const globex = await one('/api/tenancy/tenants/?slug=globex');
  const router = await one('/api/dcim/device-roles/?slug=router');
  const debian = await one('/api/dcim/platforms/?slug=debian-12');
  const v4 = await made('/api/ipam/ip-addresses/', { address: '192.0.2.10/24' });
  const v6 = await made('/api/ipam/ip-addresses/', { address: '2001:db8:ff::10/64' });
  const v6b = await made('/api/ipam/ip-addresses/', { address: '2001:db8:ff::11/64' });
  await made('/api/dcim/devices/', {
    name: 'inv-caged',
    site: ams.id,
    location: cage.id,
    rack: rack.id,
    position: 10,
    role: router.id,
    platform: debian.id,
    tenant: acme.id,
    primary_ip4: v4.id,
    primary_ip6: v6.id,
  });
  await made('/api/dcim/devices/', { name: 'inv-bare', site: fra.id });
  await made('/api/virtualization/virtual-machines/', {
    name: 'inv-vm-loose',
    site: fra.id,
    tenant: globex.id,
    primary_ip6: v6b.id,
    vcpus: 1,
  });
  const lab = await made('/api/dcim/sites/', { name: 'inv-lab', slug: 'inv-lab' });
  await made('/api/dcim/devices/', { name: 'inv-lab-sw1', site: lab.id });
  await made('/api/virtualization/virtual-machines/', { name: 'inv-lab-vm1', site: lab.id });
}

for (const backend of BACKENDS.filter((b) => b.name !== 'mysql9')) {
  describe(`Ansible nb_inventory on ${backend.name}`, function () {
    this.timeout(300000);
    let srv: TestServer;
    let temp: string;
    let drop: () => Promise<void> = async () => {};
    before(async function () {
      const why = missing();
      if (why) {
        if (process.env.CI) throw new Error(`${why} (.ci/run installs Debian's ansible)`);
        console.log(`    (skipped: ${why})`);
        this.skip();
      }
      const db = await backend.url();
      if (!db) {
        console.log(`    (skipped: ${backend.name} not configured)`);
        this.skip();
        return;
      }
      drop = db.drop;
      srv = await startServer({ storage: db.url, demoData: true });
      temp = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-inventory-'));
      await addHosts(srv);
    });
    after(async () => {
      await srv?.close();
      await drop();
      if (temp) fs.rmSync(temp, { recursive: true, force: true });
    });

    it(
      'lists every host of the filtered site groups in the groups its object names, with its primary IP as ' +
        'ansible_host and the composed variables',
      async () => {
        const { inventory, fetched } = await ansibleInventory(srv.url, ADMIN_KEY, temp);
        // What the API serves under the same filter: site_group=backbone matches its descendants.
        const hosts = [
          ...(await all(srv, '/api/dcim/devices/?site_group=backbone')),
          ...(await all(srv, '/api/virtualization/virtual-machines/?site_group=backbone')),
        ];
        expect(hosts.length).to.equal(120 + 12 + 3);
        const vars = inventory._meta.hostvars as Record<string, Obj>;
        expect(Object.keys(vars).sort()).to.deep.equal(hosts.map((h) => h.name).sort());
        expect(vars).to.not.have.any.keys('inv-lab-sw1', 'inv-lab-vm1');

        const direct = new Map<string, string[]>();
        for (const [group, body] of Object.entries(inventory as Record<string, Obj>)) {
          if (group === '_meta' || group === 'all') continue;
          for (const h of body.hosts ?? []) direct.set(h, [...(direct.get(h) ?? []), group]);
        }
        for (const h of hosts) {
          expect((direct.get(h.name) ?? []).sort(), h.name).to.deep.equal(expectedGroups(h));
          expect(vars[h.name].ansible_host, h.name).to.equal(bare(h.primary_ip6) ?? bare(h.primary_ip4));
          expect(vars[h.name].tenant_slug, h.name).to.equal(h.tenant ? h.tenant.slug : 'none');
          expect(vars[h.name].nb_site, h.name).to.equal(h.site.slug);
        }
        // The cases that differ from the rest, spelled out.
        expect(vars['inv-caged'].ansible_host).to.equal('2001:db8:ff::10');
        expect(vars['inv-caged'].primary_ip4).to.equal('192.0.2.10');
        expect(vars['inv-bare']).to.not.have.property('ansible_host');
        expect(vars['inv-vm-loose'].ansible_host).to.equal('2001:db8:ff::11');
        expect(vars['ams-core-01-vm-01'].ansible_host).to.equal('10.0.3.10');
        expect(vars['ams-core-01-rtr-01'].ansible_host).to.equal('2001:db8:0:1::1');
        expect(direct.get('inv-caged')).to.include.members([
          'location_ams-core-01-cage-7',
          'racks_ams-core-01-r02',
          'tenants_acme',
        ]);
        expect(direct.get('ams-core-01-vm-02')).to.include.members([
          'cluster_ams-core-01-pve',
          'platforms_debian-12',
          'device_roles_server',
          'tenants_globex',
        ]);
        // Locations nest under their parent and the top one under its site.
        expect(inventory['location_ams-core-01-a-hall-1'].children).to.include('location_ams-core-01-cage-7');
        expect(inventory['location_ams-core-01-a'].children).to.include('location_ams-core-01-a-hall-1');
        expect(inventory['sites_ams-core-01'].children).to.include('location_ams-core-01-a');
        // What the plugin asked for: the OpenAPI document, then each list once (limit=0: pages of MAX_PAGE_SIZE).
        expect(fetched.some((u) => u.includes('/api/schema/?format=json'))).to.equal(true);
        expect(fetched.filter((u) => u.includes('/api/dcim/devices/'))[0])
          .to.include('site_group=backbone')
          .and.include('exclude=config_context');
      },
    );
  });
}
