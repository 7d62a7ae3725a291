// The demo dataset of the embedded default: deterministic, small enough to load in a moment,
// broad enough that every filter in docs/filtering.md returns something.
import { resource } from '../engine/schema/registry.js';
import type { Inventory } from '../app/inventory.js';
import type { Row } from '../storage/types.js';
import { mulberry32 as rng } from '../engine/random/mulberry32.js';

/** What the demo dataset writes: a store with a row in any of these holds inventory already. */
const DEMO_RESOURCES = [
  'tag',
  'custom_field',
  'tenant_group',
  'tenant',
  'manufacturer',
  'device_type',
  'device_role',
  'platform',
  'region',
  'site_group',
  'site',
  'location',
  'rack_role',
  'rack',
  'cluster_type',
  'cluster_group',
  'cluster',
  'device',
  'interface',
  'virtual_machine',
  'vminterface',
  'vlan',
  'prefix',
  'ip_address',
  'service',
] as const;

async function create(inv: Inventory, name: (typeof DEMO_RESOURCES)[number], bodies: unknown[]): Promise<Row[]> {
  const out = await inv.create(resource(name), bodies);
  if (!out.ok) throw new Error(`demo data: ${name}: ${JSON.stringify(out.errors).slice(0, 500)}`);
  return out.value;
}

const CITIES = [
  'ams',
  'fra',
  'lon',
  'par',
  'mad',
  'ber',
  'nyc',
  'iad',
  'ord',
  'sfo',
  'sea',
  'lax',
  'sin',
  'tyo',
  'syd',
];

/** What DEMO_DATA did at a start: loaded the dataset, or found inventory there and left it. */
export type DemoOutcome = 'loaded' | 'present';

/**
 * DEMO_DATA: the demo dataset goes into a store that holds no inventory yet; a store that holds
 * some (the demo data of an earlier start of a persisted store, or the user's own) is left as it
 * is. Under the store's lock: two processes starting at once on one database load it once.
 */
export function loadDemoDataOnce(inv: Inventory): Promise<DemoOutcome> {
  return inv.storage.serialized('demo-data', async () => {
    for (const r of DEMO_RESOURCES) {
      const found = await inv.storage.find(
        r,
        { kind: 'const', value: true },
        { limit: 1, offset: 0, ordering: [] },
        { noCount: true },
      );
      if (found.rows.length) return 'present';
    }
    await loadDemoData(inv);
    return 'loaded';
  });
}

export async function loadDemoData(inv: Inventory): Promise<void> {
  const rand = rng(42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];

  const tags = await create(inv, 'tag', [
    { name: 'Core', slug: 'core', color: 'f44336' },
    { name: 'Edge', slug: 'edge', color: '2196f3' },
    { name: 'Production', slug: 'production', color: '4caf50' },
    { name: 'Lab', slug: 'lab', color: 'ff9800' },
    { name: 'Critical', slug: 'critical', color: '9c27b0' },
  ]);
  await create(inv, 'custom_field', [
    { name: 'rack_count', label: 'Rack count', type: 'integer', content_types: ['dcim.site'] },
    { name: 'contact', label: 'Contact', type: 'text', content_types: ['dcim.site', 'dcim.device'] },
    {
      name: 'tier',
      label: 'Tier',
      type: 'select',
      choices: ['gold', 'silver', 'bronze'],
      content_types: ['dcim.site'],
      filter_logic: 'exact',
    },
    {
      name: 'features',
      label: 'Features',
      type: 'multi-select',
      choices: ['bgp', 'ospf', 'mpls', 'evpn'],
      content_types: ['dcim.site'],
    },
    { name: 'commissioned', label: 'Commissioned', type: 'date', content_types: ['dcim.device'] },
    { name: 'monitored', label: 'Monitored', type: 'boolean', content_types: ['dcim.device', 'dcim.interface'] },
    {
      name: 'circuit_id',
      label: 'Circuit ID',
      type: 'text',
      content_types: ['dcim.interface', 'ipam.prefix'],
      filter_logic: 'exact',
    },
  ]);

  // What devices are: makers, models, roles and the software they run (no random draws here, so the
  // rest of the data stays as it was).
  const [juniper, arista, cisco] = await create(inv, 'manufacturer', [
    { name: 'Juniper', slug: 'juniper' },
    { name: 'Arista', slug: 'arista' },
    { name: 'Cisco', slug: 'cisco' },
  ]);
  const [mx10003, mx204, dcs7050, c9300] = await create(inv, 'device_type', [
    { manufacturer: juniper.id, model: 'MX10003', slug: 'mx10003', part_number: 'MX10003-BASE', u_height: 3 },
    { manufacturer: juniper.id, model: 'MX204', slug: 'mx204', part_number: 'MX204-HW-BASE' },
    {
      manufacturer: arista.id,
      model: 'DCS-7050SX3-48YC8',
      slug: 'dcs-7050sx3-48yc8',
      part_number: 'DCS-7050SX3-48YC8',
    },
    {
      manufacturer: cisco.id,
      model: 'Catalyst 9300-48P',
      slug: 'c9300-48p',
      part_number: 'C9300-48P',
      is_full_depth: false,
    },
  ]);
  const [routerRole, switchRole] = await create(inv, 'device_role', [
    { name: 'Router', slug: 'router', color: 'f44336', vm_role: false },
    { name: 'Switch', slug: 'switch', color: '2196f3', vm_role: false },
  ]);
  const [junos, eos, iosxe] = await create(inv, 'platform', [
    { name: 'Junos', slug: 'junos', manufacturer: juniper.id },
    { name: 'Arista EOS', slug: 'eos', manufacturer: arista.id },
    { name: 'Cisco IOS XE', slug: 'ios-xe', manufacturer: cisco.id },
  ]);

  const [eu, na, apac] = await create(inv, 'region', [
    { name: 'Europe', slug: 'eu' },
    { name: 'North America', slug: 'na' },
    { name: 'Asia Pacific', slug: 'apac' },
  ]);
  const subs = await create(inv, 'region', [
    { name: 'Europe West', slug: 'eu-west', parent: eu.id },
    { name: 'Europe Central', slug: 'eu-central', parent: eu.id },
    { name: 'US East', slug: 'na-east', parent: na.id },
    { name: 'US West', slug: 'na-west', parent: na.id },
  ]);
  const regionOf = (city: string) =>
    (
      ({
        ams: subs[0],
        lon: subs[0],
        par: subs[0],
        mad: subs[0],
        fra: subs[1],
        ber: subs[1],
        nyc: subs[2],
        iad: subs[2],
        ord: subs[2],
        sfo: subs[3],
        sea: subs[3],
        lax: subs[3],
      }) as Record<string, Row>
    )[city] ?? apac;

  const statuses = ['active', 'active', 'active', 'planned', 'staging', 'decommissioning', 'retired'];
  const siteBodies = [];
  for (let i = 0; i < 30; i++) {
    const city = CITIES[i % CITIES.length];
    const role = i < 15 ? 'core' : 'edge';
    const name = `${city}-${role}-${String(Math.floor(i / CITIES.length) + 1).padStart(2, '0')}`;
    const cf: Record<string, unknown> = {
      rack_count: 1 + Math.floor(rand() * 12),
      tier: pick(['gold', 'silver', 'bronze']),
      features: ['bgp', ...(rand() < 0.5 ? ['mpls'] : []), ...(rand() < 0.3 ? ['evpn'] : [])],
    };
    if (i % 4 !== 3) cf.contact = `noc-${city}@example.net`;
    siteBodies.push({
      name,
      slug: name,
      status: statuses[i % statuses.length],
      region: i === 29 ? null : regionOf(city).id,
      asn: 65000 + i * 7,
      facility: `${city.toUpperCase()}${1 + (i % 3)}`,
      description: `${role === 'core' ? 'Core' : 'Edge'} site in ${city.toUpperCase()}`,
      tags: [
        role,
        ...(i % 3 === 0 ? ['production'] : []),
        ...(i % 5 === 0 ? ['critical'] : []),
        ...(i % 7 === 6 ? ['lab'] : []),
      ],
      custom_fields: cf,
    });
  }
  const sites = await create(inv, 'site', siteBodies);

  const devBodies = [];
  for (const [si, s] of sites.entries()) {
    for (const [k, role] of ['rtr-01', 'rtr-02', 'sw-01', 'sw-02'].entries()) {
      const model = role.startsWith('rtr') ? (si < 15 ? mx10003 : mx204) : role === 'sw-01' ? dcs7050 : c9300;
      devBodies.push({
        name: `${s.name}-${role}`,
        site: s.id,
        device_type: model.id,
        role: (role.startsWith('rtr') ? routerRole : switchRole).id,
        platform: (model.manufacturer === juniper.id ? junos : model.manufacturer === arista.id ? eos : iosxe).id,
        status: pick(['active', 'active', 'active', 'planned', 'offline', 'staged']),
        serial: `SN${String(si * 4 + k).padStart(6, '0')}`,
        asset_tag: k === 3 ? null : `AT-${si * 4 + k}`,
        tags: role.startsWith('rtr') ? ['core'] : ['edge'],
        custom_fields: {
          commissioned: `202${si % 5}-0${1 + (k % 9)}-1${k}`,
          monitored: k !== 2,
          ...(k === 0 ? { contact: `oncall-${s.slug}@example.net` } : {}),
        },
      });
    }
  }
  const devices = await create(inv, 'device', devBodies);

  const ifBodies = [];
  for (const [di, d] of devices.entries()) {
    const rtr = (d.name as string).includes('rtr');
    for (let j = 0; j < 20; j++) {
      const type =
        j === 0
          ? 'virtual'
          : j === 1
            ? 'lag'
            : rtr
              ? pick(['10gbase-x-sfpp', '100gbase-x-qsfp28', '1000base-t'])
              : pick(['1000base-t', '10gbase-t', '10gbase-x-sfpp']);
      const mac = [0x00, 0x1b, di >> 8, di & 0xff, j, (di * 7 + j) & 0xff]
        .map((b) => b.toString(16).padStart(2, '0'))
        .join(':');
      ifBodies.push({
        device: d.id,
        name: j === 0 ? 'lo0' : j === 1 ? 'ae0' : `${rtr ? 'et' : 'ge'}-0/0/${j - 2}`,
        type,
        enabled: rand() > 0.1,
        mtu: type === 'virtual' ? null : pick([1500, 9000, 9216]),
        mac_address: type === 'virtual' ? null : mac,
        description: j === 2 ? 'uplink to core' : j === 3 ? 'uplink to edge' : '',
        tags: j < 4 ? ['production'] : [],
        custom_fields: j === 2 ? { circuit_id: `CKT-${1000 + di}`, monitored: true } : {},
      });
    }
  }
  const ifaces = await create(inv, 'interface', ifBodies);

  const vlanBodies = sites.flatMap((s, i) => [
    { vid: 10, name: `${s.slug}-mgmt`, site: s.id, status: 'active' },
    { vid: 100 + i, name: `${s.slug}-users`, site: s.id, status: pick(['active', 'reserved']) },
    { vid: 4000 + i, name: `${s.slug}-transit`, site: s.id, status: pick(['active', 'deprecated']) },
  ]);
  const vlans = await create(inv, 'vlan', vlanBodies);

  const pfx: unknown[] = [
    { prefix: '10.0.0.0/8', status: 'container', description: 'private IPv4 space' },
    { prefix: '192.168.0.0/16', status: 'container' },
    { prefix: '192.168.1.0/24' },
    { prefix: '192.168.2.0/24' },
    { prefix: '192.168.3.0/24' },
    { prefix: '192.168.3.192/28' },
    { prefix: '192.168.3.208/28' },
    { prefix: '192.168.3.224/28' },
    { prefix: '2001:db8::/32', status: 'container', description: 'documentation IPv6 space' },
    { prefix: 'fd78:da4f:e596:c217::/64' },
    { prefix: 'fd78:da4f:e596:c217::/120' },
    { prefix: 'fd78:da4f:e596:c217::/122' },
  ];
  for (const [i, s] of sites.entries()) {
    pfx.push({
      prefix: `10.${i}.0.0/16`,
      status: 'container',
      site: s.id,
      tags: ['production'],
      description: `${s.name} aggregate`,
    });
    for (let k = 0; k < 4; k++)
      pfx.push({
        prefix: `10.${i}.${k}.0/24`,
        site: s.id,
        vlan: vlans[i * 3 + (k % 3)].id,
        status: pick(['active', 'active', 'reserved', 'deprecated']),
        custom_fields: k === 0 ? { circuit_id: `CKT-P${i}` } : {},
      });
    pfx.push({ prefix: `10.${i}.255.0/30`, site: s.id, description: 'point-to-point' });
    pfx.push({ prefix: `2001:db8:${i.toString(16)}::/48`, status: 'container', site: s.id });
    pfx.push({ prefix: `2001:db8:${i.toString(16)}:1::/64`, site: s.id });
  }
  await create(inv, 'prefix', pfx);

  const ipBodies: unknown[] = [];
  for (const [di, d] of devices.entries()) {
    const si = Math.floor(di / 4);
    ipBodies.push({ address: `10.${si}.0.${1 + (di % 4)}/24`, dns_name: `${d.name}.example.net`, status: 'active' });
    ipBodies.push({
      address: `2001:db8:${si.toString(16)}:1::${(1 + (di % 4)).toString(16)}/64`,
      dns_name: `${d.name}.example.net`,
      status: pick(['active', 'slaac']),
    });
  }
  ipBodies.push(
    { address: '10.0.0.1/25', status: 'reserved', description: 'duplicate host, other mask' },
    { address: '192.168.3.193/28', status: 'dhcp' },
  );
  const ips = await create(inv, 'ip_address', ipBodies);
  await loadHosting(inv, { sites, devices, ifaces, ips });
  void tags;
}

async function update(inv: Inventory, name: string, items: { id: string; body: unknown }[]): Promise<void> {
  const out = await inv.updateMany(resource(name), items, true);
  if (!out.ok) throw new Error(`demo data: ${name}: ${JSON.stringify(out.errors).slice(0, 500)}`);
}

/**
 * What automation inventories group hosts by (no random draws, so the data above stays as it was):
 * tenants, site groups, locations and racks of the first three sites, every device's loopback
 * addresses as its primary IPs, a Proxmox cluster per site of the first three with virtual machines
 * on it, and SSH services.
 */
async function loadHosting(
  inv: Inventory,
  d: { sites: Row[]; devices: Row[]; ifaces: Row[]; ips: Row[] },
): Promise<void> {
  const [customers, internal] = await create(inv, 'tenant_group', [
    { name: 'Customers', slug: 'customers' },
    { name: 'Internal', slug: 'internal' },
  ]);
  const [enterprise] = await create(inv, 'tenant_group', [
    { name: 'Enterprise', slug: 'enterprise', parent: customers.id },
  ]);
  const [acme, globex, netops] = await create(inv, 'tenant', [
    { name: 'Acme Corp', slug: 'acme', group: enterprise.id },
    { name: 'Globex', slug: 'globex', group: customers.id },
    { name: 'NetOps', slug: 'netops', group: internal.id, description: 'The network team' },
  ]);
  const [backbone] = await create(inv, 'site_group', [{ name: 'Backbone', slug: 'backbone' }]);
  const [coreSites, edgeSites] = await create(inv, 'site_group', [
    { name: 'Core sites', slug: 'core-sites', parent: backbone.id },
    { name: 'Edge sites', slug: 'edge-sites', parent: backbone.id },
  ]);
  await update(
    inv,
    'site',
    d.sites.map((s, i) => ({ id: s.id, body: { group: (i < 15 ? coreSites : edgeSites).id, tenant: netops.id } })),
  );

  const hosting = d.sites.slice(0, 3);
  const buildings = await create(
    inv,
    'location',
    hosting.map((s) => ({ name: 'Building A', slug: `${s.slug}-a`, site: s.id })),
  );
  const halls = await create(
    inv,
    'location',
    hosting.map((s, i) => ({
      name: 'Hall 1',
      slug: `${s.slug}-a-hall-1`,
      site: s.id,
      parent: buildings[i].id,
      tenant: netops.id,
    })),
  );
  const [networkRole, computeRole] = await create(inv, 'rack_role', [
    { name: 'Network', slug: 'network', color: '2196f3' },
    { name: 'Compute', slug: 'compute', color: '4caf50' },
  ]);
  const racks = await create(
    inv,
    'rack',
    hosting.flatMap((s, i) => [
      {
        name: `${s.slug}-r01`,
        site: s.id,
        location: halls[i].id,
        role: networkRole.id,
        tenant: netops.id,
        facility_id: `${s.facility}-R01`,
      },
      {
        name: `${s.slug}-r02`,
        site: s.id,
        location: halls[i].id,
        role: computeRole.id,
        tenant: netops.id,
        status: 'planned',
        u_height: 48,
      },
    ]),
  );

  // Every device answers on its loopback: both its addresses go on lo0 and become its primary IPs.
  const lo0 = new Map(d.ifaces.filter((x) => x.name === 'lo0').map((x) => [x.device as string, x.id]));
  const ipsOf = (di: number) => [d.ips[di * 2], d.ips[di * 2 + 1]];
  await update(
    inv,
    'ip_address',
    d.devices.flatMap((dev, di) => ipsOf(di).map((ip) => ({ id: ip.id, body: { interface: lo0.get(dev.id) } }))),
  );
  await update(
    inv,
    'device',
    d.devices.map((dev, di) => {
      const si = Math.floor(di / 4),
        k = di % 4;
      const placed =
        si < 3 ? { location: halls[si].id, rack: racks[si * 2].id, position: 1 + k * 4, tenant: netops.id } : {};
      return { id: dev.id, body: { primary_ip4: ipsOf(di)[0].id, primary_ip6: ipsOf(di)[1].id, ...placed } };
    }),
  );

  const [ubuntu, debian] = await create(inv, 'platform', [
    { name: 'Ubuntu 24.04', slug: 'ubuntu-24-04' },
    { name: 'Debian 12', slug: 'debian-12' },
  ]);
  const [serverRole] = await create(inv, 'device_role', [
    { name: 'Server', slug: 'server', color: '4caf50', vm_role: true },
  ]);
  const [proxmox] = await create(inv, 'cluster_type', [{ name: 'Proxmox VE', slug: 'proxmox' }]);
  const [euClusters] = await create(inv, 'cluster_group', [{ name: 'EU clusters', slug: 'eu-clusters' }]);
  const clusters = await create(
    inv,
    'cluster',
    hosting.map((s) => ({
      name: `${s.slug}-pve`,
      type: proxmox.id,
      group: euClusters.id,
      site: s.id,
      tenant: netops.id,
    })),
  );
  const vmBodies = hosting.flatMap((s, si) =>
    [0, 1, 2, 3].map((k) => ({
      name: `${s.slug}-vm-0${k + 1}`,
      site: s.id,
      cluster: clusters[si].id,
      role: serverRole.id,
      platform: (k % 2 ? debian : ubuntu).id,
      tenant: [acme, globex, acme, netops][k].id,
      status: k === 3 ? 'planned' : 'active',
      vcpus: 2 << (k % 3),
      memory: 4096 << (k % 3),
      disk: 40 * (k + 1),
    })),
  );
  const vms = await create(inv, 'virtual_machine', vmBodies);
  const eth0 = await create(
    inv,
    'vminterface',
    vms.map((vm) => ({ virtual_machine: vm.id, name: 'eth0' })),
  );
  const vmIps = await create(
    inv,
    'ip_address',
    vms.map((vm, i) => ({
      address: `10.${Math.floor(i / 4)}.3.${10 + (i % 4)}/24`,
      vminterface: eth0[i].id,
      dns_name: `${vm.name}.example.net`,
      tenant: vm.tenant,
    })),
  );
  await update(
    inv,
    'virtual_machine',
    vms.map((vm, i) => ({ id: vm.id, body: { primary_ip4: vmIps[i].id } })),
  );
  await create(inv, 'service', [
    ...d.devices.slice(0, 12).map((dev) => ({ device: dev.id, name: 'ssh', protocol: 'tcp', ports: [22] })),
    ...vms.map((vm) => ({ virtual_machine: vm.id, name: 'ssh', protocol: 'tcp', ports: [22] })),
    { virtual_machine: vms[0].id, name: 'dns', protocol: 'udp', ports: [53] },
  ]);
}
