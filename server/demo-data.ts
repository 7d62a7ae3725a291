// The demo dataset of the embedded default: deterministic, small enough to load in a moment,
// broad enough that every filter in docs/filtering.md returns something. Its parts are in
// server/demo-data/: the catalogue, the network (the random draws), the hosting.
import type { Inventory } from '../app/inventory.js';
import { loadCatalogue } from './demo-data/catalogue.js';
import { loadHosting } from './demo-data/hosting.js';
import { loadNetwork } from './demo-data/network.js';
import { DEMO_RESOURCES, draws } from './demo-data/write.js';

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
  const catalogue = await loadCatalogue(inv);
  const network = await loadNetwork(inv, catalogue, draws(42));
  await loadHosting(inv, network);
}
