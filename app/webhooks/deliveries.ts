// The webhook delivery log beside the change log: the planner's cursor row, what retention must
// keep of the change log for deliveries still to be made, and the pruning of finished deliveries.
import { and, cmp, TRUE } from '../../engine/plan/nodes.js';
import { CHANGE_RESOURCE } from '../../engine/changes/change-records.js';
import type { Storage, WriteOp } from '../../storage/types.js';
import { webhookCursor, webhookDelivery } from '../../engine/schema/resources/webhook.js';
import { rowAs } from '../../engine/schema/row-types.js';
import { objectChange } from '../../engine/schema/resources/object-change.js';

export const DELIVERY = 'webhook_delivery';
export const CURSOR = 'webhook_cursor';
/** The cursor's one row. */
export const CURSOR_ID = '00000000-0000-4000-8000-00000000c0c0';

/**
 * The lowest change seq still needed: the oldest pending delivery's, or the first not yet planned (retention keeps
 * it and what follows).
 */
export async function pinnedSeq(storage: Storage): Promise<number | null> {
  const cur = await storage.get(CURSOR, CURSOR_ID);
  let low = cur ? rowAs(webhookCursor, cur).after_seq + 1 : null;
  const { rows } = await storage.find(
    DELIVERY,
    cmp('status', 'string', 'eq', false, ['pending']),
    { limit: 1, offset: 0, ordering: [{ field: 'seq', desc: false }] },
    { noCount: true },
  );
  const oldest = rows.length ? rowAs(webhookDelivery, rows[0]).seq : null;
  if (oldest !== null && (low === null || oldest < low)) low = oldest;
  return low;
}

/**
 * Deletes the delivered and failed deliveries whose change record retention has pruned (the
 * delivery log lives as long as the change log; pending ones always stay); how many.
 */
export async function pruneDeliveries(storage: Storage): Promise<number> {
  const oldest = (
    await storage.find(
      CHANGE_RESOURCE,
      TRUE,
      { limit: 1, offset: 0, ordering: [{ field: 'seq', desc: false }] },
      { noCount: true },
    )
  ).rows[0];
  if (!oldest) return 0;
  const done = and([
    cmp('seq', 'number', 'lt', false, [rowAs(objectChange, oldest).seq]),
    cmp('status', 'string', 'eq', false, ['delivered', 'failed', 'skipped']),
  ]);
  let deleted = 0;
  for (;;) {
    const { rows } = await storage.find(
      DELIVERY,
      done,
      {
        limit: 1000,
        offset: 0,
        ordering: [
          { field: 'seq', desc: false },
          { field: 'id', desc: false },
        ],
      },
      { noCount: true },
    );
    if (!rows.length) return deleted;
    await storage.apply(rows.map((r): WriteOp => ({ op: 'delete', resource: DELIVERY, id: r.id })));
    deleted += rows.length;
  }
}
