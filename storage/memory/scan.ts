// A memory table's export scan: the first chunk found as a page (its first bytes go out at once), then every
// further match ordered once in compact form (slot numbers only, engine/memory/scan-order.ts), its rows built a
// chunk at a time. Writes meanwhile (the store's write count moves) order what is left again from the position
// reached, as an offset page would.
import { evaluatePageSteps, matchesSteps } from '../../engine/memory/evaluate.js';
import type { IndexedTable } from '../../engine/memory/indexed-table.js';
import type { TableSource } from '../../engine/memory/resolve.js';
import { orderedScanSteps, type SlotCursor } from '../../engine/memory/scan-order.js';
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
  const page = { limit: opts.chunk, offset: 0, ordering };
  const first = await runStepwise(() => evaluatePageSteps(t, plan, page, tables, true, {}, true), control);
  // What is left ordered from position `skip`: the matches' list is dropped once ordered.
  const rest = (skip: number) =>
    runStepwise(function* () {
      const { slots, inIndexOrder } = yield* matchesSteps(t, plan, tables);
      return yield* orderedScanSteps(slots, inIndexOrder, t, t.def, ordering, skip);
    }, control);
  let pending: number[] | null = first.slots; // the first page, not sent yet
  let cursor: SlotCursor | null = null;
  const more = first.slots.length === opts.chunk; // else the first page held every match
  let seen = control.version();
  let done = 0;
  while (!opts.signal?.aborted) {
    if (control.version() !== seen || (!pending && !cursor && more)) {
      seen = control.version();
      cursor = await rest(done);
      pending = null;
    }
    const part = pending ?? cursor?.take(opts.chunk) ?? [];
    pending = null;
    if (!part.length) return;
    done += part.length;
    yield part.map((s) => t.row(s)).filter((r): r is Row => r !== undefined);
  }
}
