// An import that has begun and not finished, marked in its target: the writer stores the mark before
// its first batch and takes it away after its last (or with its undo). A store still holding it was
// left part-way by an importer that stopped without undoing (killed, the machine lost): a server
// refuses to start on it and another import refuses it, in one line, rather than serve half of a NetBox.
import type { Row, Storage, WriteOp } from '../types.js';
import { timeOrderedId } from '../time-ordered-id.js';

/** Kept as a bookkeeping row (the idempotency table every store has), under a key no request can make. */
const RESOURCE = 'idempotency';
const KEY = 'netbox-import:unfinished';

/** The mark, for the writer's first batch. */
export function unfinishedMark(): WriteOp {
  const now = new Date().toISOString();
  const row: Row = { id: timeOrderedId(), created: now, last_updated: now, key: KEY, request_hash: '', status: 0 };
  return { op: 'create', resource: RESOURCE, row };
}

/** The deletes of the mark (none when it is not there). */
export async function unfinishedMarkRemoved(target: Storage): Promise<WriteOp[]> {
  return (await target.findBy(RESOURCE, 'key', KEY)).map((r) => ({ op: 'delete', resource: RESOURCE, id: r.id }));
}

/** Why `store` (shown as `where`) must not be used, or null when no import was left unfinished in it. */
export async function unfinishedImport(store: Storage, where: string): Promise<string | null> {
  if (!(await store.findBy(RESOURCE, 'key', KEY)).length) return null;
  return (
    `an import:netbox into ${where} did not finish (the importer stopped part-way without undoing): ` +
    'the store holds part of a NetBox; import again into a new, empty store'
  );
}
