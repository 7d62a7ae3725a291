// Inventory for the GraphQL tests: regions, tenants, tags, a custom field on sites, sites with devices,
// interfaces and addresses, and a few nested prefixes, written through the Inventory as REST writes them.
import { expect } from 'chai';
import type { Inventory } from '../../../app/inventory.js';
import { resource } from '../../../engine/schema/registry.js';
import type { Row } from '../../../storage/types.js';

async function make(inv: Inventory, name: string, bodies: Record<string, unknown>[]): Promise<Row[]> {
  const out: Row[] = [];
  for (let i = 0; i < bodies.length; i += 500) {
    const got = await inv.create(resource(name), bodies.slice(i, i + 500));
    if (!got.ok) expect.fail(`${name}: ${JSON.stringify(got)}`);
    out.push(...got.value);
  }
  return out;
}

export interface Seeded {
  readonly sites: Row[];
  readonly devices: Row[];
  readonly interfaces: Row[];
}

/** `sites` sites with `perSite` devices each, `ifaces` interfaces a device, one address an interface. */
export async function seed(inv: Inventory, sites = 12, perSite = 2, ifaces = 3): Promise<Seeded> {
  await make(
    inv,
    'tag',
    ['a', 'b', 'c'].map((s) => ({ name: `Tag ${s}`, slug: s })),
  );
  await make(inv, 'custom_field', [{ name: 'rack_count', type: 'integer', content_types: ['dcim.site'] }]);
  const regions = await make(
    inv,
    'region',
    ['eu', 'us', 'ap'].map((s) => ({ name: s.toUpperCase(), slug: s })),
  );
  const tenants = await make(
    inv,
    'tenant',
    ['t1', 't2'].map((s) => ({ name: s, slug: s })),
  );
  const roles = await make(
    inv,
    'device_role',
    ['edge', 'core'].map((s) => ({ name: s, slug: s })),
  );
  const siteRows = await make(
    inv,
    'site',
    Array.from({ length: sites }, (_, i) => ({
      name: i % 4 === 0 ? `Core-${i}` : `site-${i}`,
      slug: `s${i}`,
      status: ['active', 'planned', 'retired'][i % 3],
      region: regions[i % 3].id,
      tenant: i % 5 === 0 ? null : tenants[i % 2].id,
      custom_fields: { rack_count: i % 6 },
      tags: [['a'], ['a', 'b'], [], ['b', 'c']][i % 4],
    })),
  );
  const devices = await make(
    inv,
    'device',
    siteRows.flatMap((s, i) =>
      Array.from({ length: perSite }, (_, j) => ({
        name: `dev-${i}-${j}`,
        site: s.id,
        role: roles[(i + j) % 2].id,
        tenant: tenants[j % 2].id,
      })),
    ),
  );
  const interfaces = await make(
    inv,
    'interface',
    devices.flatMap((d) =>
      Array.from({ length: ifaces }, (_, k) => ({
        device: d.id,
        name: k === 0 ? 'mgmt0' : `eth${k}`,
        type: '1000base-t',
      })),
    ),
  );
  await make(
    inv,
    'ip_address',
    interfaces.map((x, n) => ({ address: `10.${n >> 16}.${(n >> 8) & 255}.${n & 255}/16`, interface: x.id })),
  );
  await make(inv, 'prefix', [
    { prefix: '10.0.0.0/8' },
    { prefix: '10.1.0.0/16' },
    { prefix: '10.2.0.0/16' },
    { prefix: '10.1.1.0/24' },
    { prefix: '10.1.2.0/24' },
    { prefix: '192.168.0.0/16' },
  ]);
  return { sites: siteRows, devices, interfaces };
}
