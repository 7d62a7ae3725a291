// Id columns in a store of either id style (engine/schema/id-style.ts). The table models are the
// registry's, one set for every store; which columns hold integers is the store's: the dialect a
// store opens with carries its style (withIdStyle), and every id column asks it through here. A
// column's id space is the resource whose ids it holds (its own `id`, or an fk's target): a
// `uuidIds` space keeps UUIDs in an integer store.
import { idStyleOf, type IdStyle } from '../schema/id-style.js';
import { resource } from '../schema/registry.js';
import type { Dialect } from './dialect.js';
import type { ParamType } from './sql-builder.js';
import type { ColumnModel } from './table-model.js';

/** The style of the ids of `space` (a resource name) in the dialect's store. */
export const spaceStyle = (d: Dialect, space: string): IdStyle => idStyleOf(resource(space), d.ids);

/** Whether the ids of `space` are integers in the dialect's store. */
export const integerSpace = (d: Dialect, space: string): boolean => spaceStyle(d, space).name === 'integer';

/**
 * Whether `text` can be an id of `space` as rows hold it (canonical text: lower-case UUID, decimal
 * without leading zeros). Anything else never equals a stored id, so the compiler drops it rather
 * than binding it (a non-number bound as bigint is an error, not a mismatch).
 */
export const isIdOf = (d: Dialect, space: string, text: unknown): text is string =>
  typeof text === 'string' && spaceStyle(d, space).parse(text) === text;

/** The bound type of an id of `space`. */
export const idParam = (d: Dialect, space: string): ParamType => (integerSpace(d, space) ? 'bigint' : 'uuid');

/** The id space of an id column (class 'uuid'); throws for any other column (a caller's mistake). */
export function spaceOf(col: ColumnModel): string {
  if (!col.idSpace) throw new Error(`column ${col.name} holds no id`);
  return col.idSpace;
}

/** The column type of a reference to `space` (a join table's, a foreign key's). */
export const idRefType = (d: Dialect, space: string): string =>
  integerSpace(d, space) ? d.integerIdType(false) : d.idType;

/**
 * The dialect of a store of style `ids`: id columns of integer spaces become bigint (the key numbered
 * by the database, dialect.integerIdType), the rest as the dialect declares them.
 */
export function withIdStyle(d: Dialect, ids: IdStyle): Dialect {
  if (ids === d.ids) return d;
  const styled: Dialect = Object.freeze({
    ...d,
    ids,
    columnType: (col: ColumnModel) =>
      col.idSpace && idStyleOf(resource(col.idSpace), ids).name === 'integer'
        ? d.integerIdType(col.field.kind === 'uuid')
        : d.columnType(col),
  });
  return styled;
}

/** The texts among `ids` that can be ids of `space`, once each (the rest name no row). */
export const idsOf = (d: Dialect, space: string, ids: readonly unknown[]): string[] => [
  ...new Set(ids.filter((id): id is string => isIdOf(d, space, id))),
];
