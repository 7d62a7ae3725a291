// The rows of a whole list in its order, a chunk at a time, for an export: the store's own scan (no OFFSET:
// the cost of a chunk does not grow with how deep it lies), else pages by offset.
import type { Plan } from '../../engine/plan/nodes.js';
import type { OrderKey } from '../../engine/plan/page.js';
import type { Row, ScanOptions, Storage } from '../../storage/types.js';

export async function* scanList(
  storage: Storage,
  resource: string,
  plan: Plan,
  ordering: readonly OrderKey[],
  opts: ScanOptions,
): AsyncGenerator<Row[]> {
  if (storage.scan) {
    yield* storage.scan(resource, plan, ordering, opts);
    return;
  }
  for (let offset = 0; !opts.signal?.aborted; offset += opts.chunk) {
    const page = { limit: opts.chunk, offset, ordering };
    const { rows } = await storage.find(resource, plan, page, { signal: opts.signal, noCount: true });
    if (rows.length) yield [...rows];
    if (rows.length < opts.chunk) return;
  }
}
