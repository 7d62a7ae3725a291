// Loads a generated dataset into any Storage in batches, with a progress bar, then refreshes the
// backend's planner statistics (part of the load time).
import cliProgress from 'cli-progress';
import type { Storage } from '../storage/types.js';
import { datasetBatches, datasetCounts, type DatasetOptions } from './generate.js';

export async function loadDataset(storage: Storage, o: DatasetOptions, label: string): Promise<number> {
  const c = datasetCounts(o);
  const total = c.prefixes + c.sites + c.devices + c.interfaces + c.tags + 10;
  const bar = new cliProgress.SingleBar(
    {
      format: `  load ${label} [{bar}] {percentage}% {value}/{total} rows {duration_formatted}`,
      noTTYOutput: true,
      notTTYSchedule: 5000,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  const t0 = performance.now();
  let n = 0;
  try {
    // Statistics are refreshed each time the rows double: a database that has none (autovacuum
    // lags a bulk load, or is off) plans the load's own lookups for a near-empty table.
    let nextStats = 10_000;
    for (const batch of datasetBatches(o)) {
      await storage.apply(batch, { log: false });
      n += batch.length;
      bar.update(n);
      if (n >= nextStats) {
        await storage.afterBulkLoad();
        nextStats *= 2;
      }
    }
    await storage.afterBulkLoad();
    bar.update(total);
  } finally {
    bar.stop(); // its timer would otherwise keep a failed load's process alive
  }
  return performance.now() - t0;
}
