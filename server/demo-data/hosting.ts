// What automation inventories group hosts by (no random draws, so the data before it stays as it
// was): tenants, site groups, locations and racks of the first three sites, every device's loopback
// addresses as its primary IPs, a Proxmox cluster per site of the first three with virtual machines
// on it, and SSH services.
import type { Inventory } from '../../app/inventory.js';
import type { Row } from '../../storage/types.js';
import type { Network } from './network.js';
import { create, update } from './write.js';

interface Tenants {
  readonly acme: Row;
  readonly globex: Row;
  readonly netops: Row;
}

export async function loadHosting(inv: Inventory, d: Network): Promise<void> {
  const tenants = await loadTenancy(inv, d.sites);
  const hosting = d.sites.slice(0, 3);
  const { halls, racks } = await loadRacks(inv, hosting, tenants.netops);
  await assignLoopbacks(inv, d, halls, racks, tenants.netops);
  const vms = await loadVirtualMachines(inv, hosting, tenants);
  await create(inv, 'service', [
    ...d.devices.slice(0, 12).map((dev) => ({ device: dev.id, name: 'ssh', protocol: 'tcp', ports: [22] })),
    ...vms.map((vm) => ({ virtual_machine: vm.id, name: 'ssh', protocol: 'tcp', ports: [22] })),
    { virtual_machine: vms[0].id, name: 'dns', protocol: 'udp', ports: [53] },
  ]);
}

/** Tenant groups and tenants, site groups, and every site in a group and held by the network team. */
async function loadTenancy(inv: Inventory, sites: Row[]): Promise<Tenants> {
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
    sites.map((s, i) => ({ id: s.id, body: { group: (i < 15 ? coreSites : edgeSites).id, tenant: netops.id } })),
  );
  return { acme, globex, netops };
}

/** A building with a hall in each hosting site, and two racks (network, compute) in each hall. */
async function loadRacks(inv: Inventory, hosting: Row[], netops: Row): Promise<{ halls: Row[]; racks: Row[] }> {
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
  return { halls, racks };
}

/**
 * Every device answers on its loopback: both its addresses go on lo0 and become its primary IPs; the
 * devices of the hosting sites are placed in their network rack.
 */
async function assignLoopbacks(inv: Inventory, d: Network, halls: Row[], racks: Row[], netops: Row): Promise<void> {
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
}

/** A Proxmox cluster per hosting site with four virtual machines, each with eth0 and a primary IPv4. */
async function loadVirtualMachines(inv: Inventory, hosting: Row[], t: Tenants): Promise<Row[]> {
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
      tenant: t.netops.id,
    })),
  );
  const vmBodies = hosting.flatMap((s, si) =>
    [0, 1, 2, 3].map((k) => ({
      name: `${s.slug}-vm-0${k + 1}`,
      site: s.id,
      cluster: clusters[si].id,
      role: serverRole.id,
      platform: (k % 2 ? debian : ubuntu).id,
      tenant: [t.acme, t.globex, t.acme, t.netops][k].id,
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
  return vms;
}
