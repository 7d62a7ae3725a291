// Retention of the change log: records older than CHANGELOG_RETENTION_DAYS, or beyond the newest
// CHANGELOG_MAX_ROWS, are deleted in batches (each batch atomic, itself unlogged). Never pruned: the
// newest record (a memory store finds its counter from it), and any record a pin still needs (a
// webhook delivery still pending). Pruning runs in the background; a reader meanwhile sees either
// the record or nothing, never a half-pruned batch.
import { and, cmp, or, type Plan } from '../engine/plan/nodes.js';
import { CHANGE_RESOURCE } from '../engine/changes/change-records.js';
import type { Storage } from '../storage/types.js';

export interface RetentionSettings {
  /** Records older than this many days go (0: kept whatever their age). */
  readonly days: number;
  /** Only the newest this many records stay (0: no cap). */
  readonly maxRows: number;
}

/** The lowest seq something still needs (records from it on are kept), or null for none. */
export type RetentionPin = () => Promise<number | null>;

const BATCH = 1000;

export class ChangeRetention {
  private readonly pins: RetentionPin[] = [];

  constructor(
    private readonly storage: Storage,
    private readonly settings: RetentionSettings,
  ) {}

  /** Keep what `pin` names from being pruned. */
  pin(pin: RetentionPin): void {
    this.pins.push(pin);
  }

  /** Deletes what the settings let go; the number of records deleted. */
  async prune(now = Date.now()): Promise<number> {
    const { days, maxRows } = this.settings;
    if (!days && !maxRows) return 0;
    const newest = await this.storage.changeSeq();
    let below = newest; // strictly below: the newest always stays
    for (const p of this.pins) {
      const needed = await p();
      if (needed !== null && needed < below) below = needed;
    }
    const old: Plan[] = [];
    if (maxRows) old.push(cmp('seq', 'number', 'lte', false, [newest - maxRows]));
    if (days) old.push(cmp('time', 'datetime', 'lt', false, [new Date(now - days * 86_400_000).toISOString()]));
    const plan = and([cmp('seq', 'number', 'lt', false, [below]), old.length === 1 ? old[0] : or(old)]);
    let deleted = 0;
    for (;;) {
      const { rows } = await this.storage.find(
        CHANGE_RESOURCE,
        plan,
        { limit: BATCH, offset: 0, ordering: [{ field: 'seq', desc: false }] },
        { noCount: true },
      );
      if (!rows.length) return deleted;
      await this.storage.apply(
        rows.map((r) => ({ op: 'delete', resource: CHANGE_RESOURCE, id: r.id })),
        { log: false },
      );
      deleted += rows.length;
    }
  }
}
