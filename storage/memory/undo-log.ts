// What a batch changed, in order, so that a failure part way takes it all back. Entries are flat
// (table, action, payload) triples: a bulk load of a million rows would otherwise leave a closure
// per row for the collector.
import type { IndexedTable, Row } from '../../engine/memory/indexed-table.js';

const CREATED = 0,
  REMOVED = 1,
  REPLACED = 2;

export class UndoLog {
  private readonly entries: (IndexedTable | number | Row | string)[] = [];

  created(t: IndexedTable, id: string): void {
    this.entries.push(t, CREATED, id);
  }
  /** `old`: the row as it was before its delete. */
  removed(t: IndexedTable, old: Row): void {
    this.entries.push(t, REMOVED, old);
  }
  /** `old`: the row as it was before its update. */
  replaced(t: IndexedTable, old: Row): void {
    this.entries.push(t, REPLACED, old);
  }

  /** Takes every change back, the last first. */
  revert(): void {
    const e = this.entries;
    for (let i = e.length - 3; i >= 0; i -= 3) {
      const t = e[i] as IndexedTable,
        action = e[i + 1] as number,
        payload = e[i + 2];
      if (action === CREATED) t.remove(payload as string);
      else if (action === REMOVED) t.insert(payload as Row);
      else t.replace(payload as Row);
    }
    e.length = 0;
  }
}
