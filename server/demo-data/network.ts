// The demo dataset's network: 30 sites in 15 cities, four devices each with 20 interfaces, three
// VLANs per site, IPv4 and IPv6 prefixes, and two addresses per device. Each body builder draws from
// the one seeded sequence in a fixed order, so every load writes the same data.
import type { Inventory } from '../../app/inventory.js';
import type { Row } from '../../storage/types.js';
import type { Catalogue } from './catalogue.js';
import { create, type Draws } from './write.js';

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
const SITE_STATUSES = ['active', 'active', 'active', 'planned', 'staging', 'decommissioning', 'retired'];
const DEVICE_ROLES = ['rtr-01', 'rtr-02', 'sw-01', 'sw-02'];

/** Prefixes beside the per-site ones: containers and nested blocks for the net lookups' examples. */
const SHARED_PREFIXES = [
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

/** What the hosting part of the dataset builds on. */
export interface Network {
  readonly sites: Row[];
  readonly devices: Row[];
  readonly ifaces: Row[];
  readonly ips: Row[];
}

export async function loadNetwork(inv: Inventory, c: Catalogue, d: Draws): Promise<Network> {
  const sites = await create(inv, 'site', siteBodies(c, d));
  const devices = await create(inv, 'device', deviceBodies(sites, c, d));
  const ifaces = await create(inv, 'interface', interfaceBodies(devices, d));
  const vlans = await create(inv, 'vlan', vlanBodies(sites, d));
  await create(inv, 'prefix', prefixBodies(sites, vlans, d));
  const ips = await create(inv, 'ip_address', addressBodies(devices, d));
  return { sites, devices, ifaces, ips };
}

function siteBodies(c: Catalogue, { rand, pick }: Draws): unknown[] {
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
      status: SITE_STATUSES[i % SITE_STATUSES.length],
      region: i === 29 ? null : c.regionOf(city).id,
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
  return siteBodies;
}

function deviceBodies(sites: Row[], c: Catalogue, { pick }: Draws): unknown[] {
  const { mx10003, mx204, dcs7050, c9300 } = c.models;
  const { junos, eos, iosxe } = c.platforms;
  const devBodies = [];
  for (const [si, s] of sites.entries()) {
    for (const [k, role] of DEVICE_ROLES.entries()) {
      const model = role.startsWith('rtr') ? (si < 15 ? mx10003 : mx204) : role === 'sw-01' ? dcs7050 : c9300;
      devBodies.push({
        name: `${s.name}-${role}`,
        site: s.id,
        device_type: model.id,
        role: (role.startsWith('rtr') ? c.routerRole : c.switchRole).id,
        platform: (model.manufacturer === c.juniper.id ? junos : model.manufacturer === c.arista.id ? eos : iosxe).id,
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
  return devBodies;
}

function interfaceBodies(devices: Row[], { rand, pick }: Draws): unknown[] {
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
  return ifBodies;
}

const vlanBodies = (sites: Row[], { pick }: Draws): unknown[] =>
  sites.flatMap((s, i) => [
    { vid: 10, name: `${s.slug}-mgmt`, site: s.id, status: 'active' },
    { vid: 100 + i, name: `${s.slug}-users`, site: s.id, status: pick(['active', 'reserved']) },
    { vid: 4000 + i, name: `${s.slug}-transit`, site: s.id, status: pick(['active', 'deprecated']) },
  ]);

function prefixBodies(sites: Row[], vlans: Row[], { pick }: Draws): unknown[] {
  const pfx: unknown[] = structuredClone(SHARED_PREFIXES);
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
  return pfx;
}

function addressBodies(devices: Row[], { pick }: Draws): unknown[] {
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
  return ipBodies;
}
