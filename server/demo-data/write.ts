// How the demo dataset writes: through the inventory service, as an API client would, failing loudly.
import { resource } from '../../engine/schema/registry.js';
import type { Inventory } from '../../app/inventory.js';
import type { Row } from '../../storage/types.js';
import { mulberry32 as rng } from '../../engine/random/mulberry32.js';

/** What the demo dataset writes: a store with a row in any of these holds inventory already. */
export const DEMO_RESOURCES = [
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
export type DemoResource = (typeof DEMO_RESOURCES)[number];

export async function create(inv: Inventory, name: DemoResource, bodies: unknown[]): Promise<Row[]> {
  const out = await inv.create(resource(name), bodies);
  if (!out.ok) throw new Error(`demo data: ${name}: ${JSON.stringify(out.errors).slice(0, 500)}`);
  return out.value;
}

export async function update(inv: Inventory, name: string, items: { id: string; body: unknown }[]): Promise<void> {
  const out = await inv.updateMany(resource(name), items, true);
  if (!out.ok) throw new Error(`demo data: ${name}: ${JSON.stringify(out.errors).slice(0, 500)}`);
}

/** The dataset's random draws: one seeded sequence, drawn in the same order at every load. */
export interface Draws {
  readonly rand: () => number;
  readonly pick: <T>(xs: readonly T[]) => T;
}

export function draws(seed: number): Draws {
  const rand = rng(seed);
  return { rand, pick: <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] };
}
