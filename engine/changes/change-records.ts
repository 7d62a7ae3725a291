// The change records of a write batch: one per object a logged resource's op creates, changes or
// deletes (cascades included: they are ops of the batch too), under the request's id and user.
// Pure: the caller gives the time, who and which request, and how ids are made. Storage numbers
// the records (`seq`) inside the write's own transaction (numberChanges).
import { contentType, findResource, resource } from '../schema/registry.js';
import type { ResourceDef } from '../schema/types.js';

type Row = Record<string, unknown> & { id: string };

/** A write as storage takes it (storage/types.ts WriteOp), with the row as it was before where the caller knew it. */
export type LoggedOp =
  | { readonly op: 'create'; readonly resource: string; readonly row: Row }
  | { readonly op: 'update'; readonly resource: string; readonly row: Row; readonly before?: Row }
  | { readonly op: 'delete'; readonly resource: string; readonly id: string; readonly before?: Row };

export interface ChangeMeta {
  readonly time: string;
  readonly userName: string;
  readonly requestId: string;
  readonly newId: () => string;
  /** The webhook delivery the write answers (X-Netinv-Webhook), if any. */
  readonly webhookDelivery?: string | null;
}

export const CHANGE_RESOURCE = 'object_change';

/** Whether writes of this resource leave change records. */
export const isLogged = (r: ResourceDef): boolean => r.logged !== false;

/** What a record keeps of a row: every field a client may see (never key hashes or row versions). */
const visibleCache = new Map<string, readonly string[]>();
function visible(r: ResourceDef, row: Row): Record<string, unknown> {
  let names = visibleCache.get(r.name);
  if (!names) visibleCache.set(r.name, (names = r.fields.filter((f) => !f.hidden).map((f) => f.name)));
  const out: Record<string, unknown> = {};
  for (const n of names) if (n in row) out[n] = row[n];
  return out;
}

const repr = (r: ResourceDef, row: Row | undefined, id: string): string => {
  const v = row?.[r.displayField];
  return (v === null || v === undefined || v === '' ? id : String(v)).slice(0, 200);
};

/** What the record holds of the object after and before the op (per resource where it differs). */
interface Shaper {
  after(r: ResourceDef, row: Row, batch: readonly LoggedOp[]): Record<string, unknown>;
  before(r: ResourceDef, row: Row): Record<string, unknown>;
}

const WHOLE: Shaper = { after: (r, row) => visible(r, row), before: (r, row) => visible(r, row) };

/**
 * An entity changed by an event: the event's history row (same batch) says what the context
 * change was; the record carries that merge patch and the transition, not the whole context
 * (contexts may be large; the lose-nothing issue caps them).
 */
const ENTITY_EVENT: Shaper = {
  after(r, row, batch) {
    const h = transitionOf(batch, row.entity_id);
    const out = visible(r, row);
    if (!h) return out;
    // The trigger that moved it (`__entity_created__` for a creation): the stream's entity.transition event.
    out.trigger = h.trigger;
    if (h.context_patch === null || h.context_patch === undefined) return out;
    delete out.context;
    return { ...out, context_patch: h.context_patch };
  },
  before: (_r, row) => ({ state: row.state, version: row.version }),
};

const SHAPERS: Readonly<Record<string, Shaper>> = { entity: ENTITY_EVENT };

/** The transition an entity op of the batch made (its history row), for the stream's entity.transition event. */
export function transitionOf(batch: readonly LoggedOp[], entityId: unknown): Row | null {
  const h = batch.find((o) => o.op === 'create' && o.resource === 'history' && o.row.entity_id === entityId);
  return h && h.op === 'create' ? h.row : null;
}

/** The change records (object_change rows, `seq` not yet given) of a batch, in the batch's order. */
export function changeRecords(batch: readonly LoggedOp[], meta: ChangeMeta): Row[] {
  const out: Row[] = [];
  for (const op of batch) {
    const r = findResource(op.resource);
    if (!r || !isLogged(r)) continue;
    const shape = SHAPERS[r.name] ?? WHOLE;
    const id = op.op === 'delete' ? op.id : op.row.id;
    const before = op.op === 'create' ? undefined : op.before;
    const after = op.op === 'delete' ? undefined : op.row;
    out.push({
      id: meta.newId(),
      created: meta.time,
      last_updated: meta.time,
      seq: null,
      time: meta.time,
      user_name: meta.userName,
      request_id: meta.requestId,
      action: op.op,
      changed_object_type: contentType(r),
      changed_object_id: id,
      object_repr: repr(r, after ?? before, id),
      // A delete keeps the object as it was (Nautobot's object_data of a deletion).
      object_data: after ? shape.after(r, after, batch) : before ? visible(r, before) : null,
      prechange_data: !before ? null : after ? shape.before(r, before) : visible(r, before),
      webhook_delivery: meta.webhookDelivery ?? null,
    });
  }
  return out;
}

/** The field a resource's store numbers (gap-free, commit order), if any. */
export function sequenceField(resourceName: string): string | null {
  return resource(resourceName).fields.find((f) => f.sequence)?.name ?? null;
}

/**
 * How many rows of the batch the store must number, and the highest number rows already carry
 * (a copy of a log keeps its numbers: the counter must then pass them).
 */
export function toNumber(batch: readonly { readonly op: string; readonly resource: string; readonly row?: Row }[]): {
  count: number;
  carried: number;
} {
  let count = 0,
    carried = 0;
  for (const o of batch) {
    if (o.op !== 'create' || !o.row) continue;
    const f = sequenceField(o.resource);
    if (!f) continue;
    const v = o.row[f];
    if (typeof v === 'number') carried = Math.max(carried, v);
    else count++;
  }
  return { count, carried };
}

/**
 * The batch with its unnumbered rows numbered from `first` on, in order. Given `time`, the change
 * records take it: the moment they were numbered inside the write's transaction, after any wait for
 * the counter, so a record's time is its commit's (within a fsync), not its request's start.
 */
export function numberChanges<T extends { readonly op: string; readonly resource: string; readonly row?: Row }>(
  batch: readonly T[],
  first: number,
  time?: string,
): T[] {
  let next = first;
  return batch.map((o) => {
    if (o.op !== 'create' || !o.row) return o;
    const f = sequenceField(o.resource);
    if (!f || typeof o.row[f] === 'number') return o;
    return { ...o, row: { ...o.row, [f]: next++, ...(time && o.resource === CHANGE_RESOURCE ? { time } : {}) } };
  });
}
