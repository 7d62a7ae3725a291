// The writes one delete request makes: dependents' changes (references set to null, tags taken
// off) and deletes, in an order every backend accepts (a row's dependents before the row). A row
// touched twice is written once: two of its references set to null are one update, and a row
// changed and then deleted is only deleted; each is checked against the version first read.
import { versionOf, type Row, type WriteOp } from '../storage/types.js';

type UpdateOp = Extract<WriteOp, { op: 'update' }>;

export class DeleteBatch {
  /** Objects planned for deletion (or being planned), by resource and id (an integer store's ids repeat
   * across resources): their dependents are not changed. */
  private readonly deleting = new Set<string>();

  isDeleting(resource: string, id: string): boolean {
    return this.deleting.has(`${resource}\u0000${id}`);
  }

  /** The rows of `resource` not planned for deletion. */
  notDeleting(resource: string, rows: readonly Row[]): Row[] {
    return rows.filter((row) => !this.isDeleting(resource, row.id));
  }

  markDeleting(resource: string, id: string): void {
    this.deleting.add(`${resource}\u0000${id}`);
  }
  private readonly ops: (WriteOp | null)[] = [];
  /** Index in `ops` of each row's pending update, by resource and id. */
  private readonly updates = new Map<string, number>();

  /** Changes a dependent row (merged with this batch's earlier change of it). */
  change(resource: string, row: Row, change: (current: Row) => Partial<Row>): void {
    const key = `${resource}\u0000${row.id}`;
    const at = this.updates.get(key);
    if (at !== undefined) {
      const pending = this.ops[at] as UpdateOp;
      this.ops[at] = { ...pending, row: { ...pending.row, ...change(pending.row) } };
      return;
    }
    const v = versionOf(row);
    this.updates.set(key, this.ops.length);
    this.ops.push({
      op: 'update',
      resource,
      row: { ...row, ...change(row), version: v + 1 },
      expectVersion: v,
      before: row,
    });
  }

  /** Deletes a row after everything planned so far (its dependents); an earlier change of it is dropped. */
  delete(resource: string, row: Row, expectVersion?: number): void {
    const id = row.id;
    const key = `${resource}\u0000${id}`;
    const at = this.updates.get(key);
    let expect = expectVersion;
    if (at !== undefined) {
      expect = (this.ops[at] as UpdateOp).expectVersion;
      this.ops[at] = null;
      this.updates.delete(key);
    }
    this.ops.push({
      op: 'delete',
      resource,
      id,
      before: row,
      ...(expect === undefined ? {} : { expectVersion: expect }),
    });
  }

  writes(): WriteOp[] {
    return this.ops.filter((o): o is WriteOp => o !== null);
  }
}
