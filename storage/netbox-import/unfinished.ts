// An import that has begun and not finished, marked in its target: the import claims its target by
// storing the mark (writer.ts claimTarget) and takes it away after its last batch (or with its undo).
// A store holding it is being imported into, or was left part-way by an importer that stopped without
// undoing (killed, the machine lost): a server refuses to start on it and another import refuses it,
// in one line, rather than serve half of a NetBox. The key is unique: two imports cannot both mark it.
import type { Row, Storage, WriteOp } from '../types.js';
import { timeOrderedId } from '../time-ordered-id.js';

/** Kept as a bookkeeping row (the idempotency table every store has), under a key no request can make. */
export const MARK_RESOURCE = 'idempotency';
const KEY = 'netbox-import:unfinished';

/** The mark, written when an import claims its target. */
export function unfinishedMark(): WriteOp {
  const now = new Date().toISOString();
  const row: Row = { id: timeOrderedId(), created: now, last_updated: now, key: KEY, request_hash: '', status: 0 };
  return { op: 'create', resource: MARK_RESOURCE, row };
}

/** The deletes of the mark (none when it is not there). */
export async function unfinishedMarkRemoved(target: Storage): Promise<WriteOp[]> {
  return (await target.findBy(MARK_RESOURCE, 'key', KEY)).map((r) => ({
    op: 'delete',
    resource: MARK_RESOURCE,
    id: r.id,
  }));
}

/** Why `store` (shown as `where`) must not be used, or null when no import was left unfinished in it. */
export async function unfinishedImport(store: Storage, where: string): Promise<string | null> {
  if (!(await store.findBy(MARK_RESOURCE, 'key', KEY)).length) return null;
  return (
    `an import:netbox into ${where} is running or did not finish (an importer that stopped part-way without ` +
    'undoing leaves part of a NetBox): wait for the running import, or import again into a new, empty store'
  );
}
