// One field of a table's rows, stored by slot. A column keeps `undefined` (the row has no such key)
// apart from `null`; `get` returns the stored value, shared between rows that hold equal ones.
import type { ColumnImage } from './column-image.js';

export interface Column {
  set(slot: number, value: unknown): void;
  clear(slot: number): void;
  get(slot: number): unknown;
  /** Room for slots below `capacity` (never shrinks below what is in use). */
  resize(capacity: number): void;
  /** The values of the slots in `live` as slots 0 .. live.length-1 (column-image.ts). */
  image(name: string, live: Int32Array): ColumnImage;
  /** Takes an image of `rows` slots into this empty column; false (nothing taken) when the image
   * is of another kind of column. */
  load(img: ColumnImage, rows: number): boolean;
}

/** States of a packed column's slot (0 is absent): packed as numbers, or kept as given beside them. */
export const PACKED = 1,
  OTHER = 2;

/** A typed array of `capacity` × `width` elements holding what `old` held (`old` itself when it
 * has that length already: a load that fits its columns to its rows copies nothing). */
export function resized<T extends Uint8Array | Uint32Array | Int32Array | Float64Array>(
  old: T,
  capacity: number,
  width = 1,
): T {
  if (old.length === capacity * width) return old;
  const next = new (old.constructor as new (n: number) => T)(capacity * width);
  next.set(old.length <= next.length ? old : (old.subarray(0, next.length) as T));
  return next;
}
