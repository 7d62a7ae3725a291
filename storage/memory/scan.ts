// A memory table's export scan: the first chunk found as a page (its first bytes go out at once), then every
// further match ordered once, its rows built a chunk at a time. Writes meanwhile (the store's write count
// moves) order what is left again from the position reached, as an offset page would.
import { evaluatePageSteps } from '../../engine/memory/evaluate.js';
import type { IndexedTable } from '../../engine/memory/indexed-table.js';
import type { TableSource } from '../../engine/memory/resolve.js';
import type { Plan } from '../../engine/plan/nodes.js';
import type { OrderKey } from '../../engine/plan/page.js';
import type { Row, ScanOptions } from '../types.js';
import { runStepwise, type StepControl } from './stepwise.js';

export async function* scanTable(
  t: IndexedTable,
  tables: TableSource,
  plan: Plan,
  ordering: readonly OrderKey[],
  opts: ScanOptions,
  control: StepControl,
): AsyncGenerator<Row[]> {
  const slotsFrom = async (offset: number, limit: number) =>
    (await runStepwise(() => evaluatePageSteps(t, plan, { limit, offset, ordering }, tables, true, {}, true), control))
      .slots;
  let slots = await slotsFrom(0, opts.chunk);
  let whole = slots.length < opts.chunk; // the first page held every match
  let seen = control.version();
  let at = 0,
    done = 0;
  while (!opts.signal?.aborted) {
    if ((at === slots.length && !whole) || control.version() !== seen) {
      seen = control.version();
      slots = await slotsFrom(done, Number.MAX_SAFE_INTEGER);
      whole = true;
      at = 0;
    }
    const part = slots.slice(at, at + opts.chunk);
    if (!part.length) return;
    at += part.length;
    done += part.length;
    yield part.map((s) => t.row(s)).filter((r): r is Row => r !== undefined);
  }
}
