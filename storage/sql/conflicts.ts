// Database constraint violations -> the StorageConflict (field, message) the memory store raises
// for the same write. Constraint names come from engine/sql/table-model.ts.
import { TABLE_MODELS, tableModel, type TableModel } from '../../engine/sql/table-model.js';
import { MSG } from '../../engine/schema/messages.js';
import { StorageConflict, type WriteOp } from '../types.js';

type Owner =
  | { kind: 'pk'; model: TableModel }
  | { kind: 'unique'; model: TableModel; field: string; message: string }
  | { kind: 'fk'; model: TableModel; field: string; target: string }
  | { kind: 'tag'; model: TableModel }
  | { kind: 'tag-obj'; model: TableModel };

const owners = new Map<string, Owner>();
for (const m of TABLE_MODELS) {
  owners.set(m.pkName, { kind: 'pk', model: m });
  for (const u of m.uniques) owners.set(u.name, { kind: 'unique', model: m, field: u.field, message: u.message });
  for (const f of m.fks) owners.set(f.name, { kind: 'fk', model: m, field: f.field, target: f.target });
  if (m.tagFk) owners.set(m.tagFk, { kind: 'tag', model: m });
  if (m.tagObjFk) owners.set(m.tagObjFk, { kind: 'tag-obj', model: m });
}

/** A unique violation; MySQL names every primary key PRIMARY. */
export function uniqueConflict(constraint: string): StorageConflict | null {
  if (constraint === 'PRIMARY') return new StorageConflict('id', MSG.idExists);
  const o = owners.get(constraint);
  if (!o) return null;
  if (o.kind === 'pk') return new StorageConflict('id', MSG.idExists);
  if (o.kind === 'unique') return new StorageConflict(o.field, o.message);
  return null;
}

/** Where a foreign-key violation points: the referencing field, and the table it references. */
export function fkOwner(constraint: string): { field: string; target: string; model: TableModel } | null {
  const o = owners.get(constraint);
  if (!o) return null;
  if (o.kind === 'fk') return { field: o.field, target: o.target, model: o.model };
  if (o.kind === 'tag') return { field: 'tags', target: 'tag', model: o.model };
  return null;
}

/** A foreign-key violation while writing `op` (value: the missing id, when known). */
export function fkConflict(constraint: string, op: WriteOp, value: string | null): StorageConflict | null {
  const o = fkOwner(constraint);
  if (!o) return null;
  if (op.op === 'delete')
    return o.field === 'tags'
      ? new StorageConflict('tags', MSG.tagAssigned)
      : new StorageConflict(o.field, MSG.referencedBy(o.model.resource.label));
  return new StorageConflict(o.field, MSG.fkNotFound(value ?? '?'));
}

export { tableModel };
