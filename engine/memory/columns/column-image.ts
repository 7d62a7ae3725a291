// A table's columns as plain arrays, its live slots made dense (0 .. rows-1, in slot order): what a
// snapshot stores and a start loads back without making a row object or parsing a value per row.
// Typed arrays for the id and network words, dictionary codes and date-times; each dictionary's
// distinct values once; values kept apart from the packed form as (slot, value) lists. A load
// takes the arrays and values as its own.
import type { NetFieldNames } from './net-column.js';

/** Values kept beside a packed column, by dense slot. */
export type SlotValues = readonly (readonly [number, unknown])[];

export interface IdImage {
  /** Four words per slot, read where `packed` is not 0 (1: a UUID, 2: an integer id; id-column.ts). */
  readonly words: Uint32Array<ArrayBuffer>;
  readonly packed: Uint8Array<ArrayBuffer>;
  /** Ids not held as words (not canonical ids of the column's style). */
  readonly other: SlotValues;
}

export interface NetImage {
  readonly names: NetFieldNames;
  /** Four bytes per slot: family, length, text state, derived-fields state. */
  readonly meta: Uint8Array<ArrayBuffer>;
  readonly words: Uint32Array<ArrayBuffer>;
  readonly otherText: SlotValues;
  /** Derived fields given otherwise than the column would write them: an object per slot. */
  readonly otherDerived: SlotValues;
}

export type ColumnImage =
  /** codes[slot]: 0 for no value, else 1 + index into `values`. */
  | {
      readonly kind: 'dict';
      readonly name: string;
      readonly codes: Int32Array<ArrayBuffer>;
      readonly values: readonly unknown[];
    }
  /** state[slot]: 0 none, 1 packed in `ms`, 2 in `other`. */
  | {
      readonly kind: 'date';
      readonly name: string;
      readonly ms: Float64Array<ArrayBuffer>;
      readonly state: Uint8Array<ArrayBuffer>;
      readonly other: SlotValues;
    };

export interface TableImage {
  readonly rows: number;
  readonly ids: IdImage;
  readonly net: NetImage | null;
  /** Every other column, in the order a row's keys come (undeclared keys after the registry's). */
  readonly columns: readonly ColumnImage[];
}

/** `src`'s elements (`width` per slot) at the slots of `live`, in order. */
export function gather<T extends Uint8Array | Int32Array | Uint32Array | Float64Array>(
  src: T,
  live: Int32Array,
  width = 1,
): T {
  const out = new (src.constructor as new (n: number) => T)(live.length * width);
  if (width === 1) for (let i = 0; i < live.length; i++) out[i] = src[live[i]];
  else
    for (let i = 0; i < live.length; i++)
      for (let k = 0, from = live[i] * width; k < width; k++) out[i * width + k] = src[from + k];
  return out;
}

/** An image array's length must be what its row count says: a wrong one is a damaged image. */
export function checkLength(what: string, a: { readonly length: number }, want: number): void {
  if (a.length !== want) throw new RangeError(`table image: ${what} holds ${a.length} elements, ${want} expected`);
}
