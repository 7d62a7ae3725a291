// Rows of one resource stored by column: the kind of each registry field picks its column (ids as
// words, date-times as numbers, the network field as address words, everything else dictionary
// coded), and keys the registry does not declare get a dictionary column when first seen. A row
// object is built only when a row is read; predicates read single values through `reader`.
import type { ResourceDef } from '../schema/types.js';
import { idStyleOf, UUID_IDS, type IdStyle } from '../schema/id-style.js';
import type { Column } from './columns/column.js';
import type { ColumnImage, TableImage } from './columns/column-image.js';
import { DateColumn } from './columns/date-column.js';
import { DictColumn } from './columns/dict-column.js';
import { IdColumn } from './columns/id-column.js';
import { NetColumn, netFieldNames } from './columns/net-column.js';

export type Row = Record<string, unknown> & { id: string };

/** Column for a declared field kind; dictionary coding for everything without a denser form. */
const COLUMN_OF: Readonly<Record<string, () => Column>> = { datetime: () => new DateColumn() };

export class RowStore {
  readonly ids: IdColumn;
  readonly net: NetColumn | null;
  /** Key -> its column; null for the id and the network fields, which are stored apart. */
  private readonly columns = new Map<string, Column | null>();
  /** What `row` reads, in key order: the id, the network fields (once, at the first), or a column. */
  private readonly layout: ({ name: string; column: Column } | 'id' | 'net')[] = [];
  private capacity = 0;
  /** One past the highest slot in use. */
  private end = 0;
  private readonly freeSlots: number[] = [];
  /** Keys of the last row written, in its order, and their columns. */
  private readonly lastNames: string[] = [];
  private readonly lastColumns: (Column | null)[] = [];

  /** `ids`: the store's id style (a `uuidIds` resource keeps UUIDs in either). */
  constructor(
    readonly def: ResourceDef,
    ids: IdStyle = UUID_IDS,
  ) {
    this.ids = new IdColumn(idStyleOf(def, ids));
    const nf = netFieldNames(def.fields);
    this.net = nf ? new NetColumn(nf) : null;
    this.columns.set('id', null);
    for (const n of this.net?.names ?? []) this.columns.set(n, null);
    for (const f of def.fields) {
      if (f.name === 'id') {
        this.layout.push('id');
        continue;
      }
      if (this.net?.names.has(f.name)) {
        if (!this.layout.includes('net')) this.layout.push('net');
        continue;
      }
      this.addColumn(f.name, (COLUMN_OF[f.kind] ?? (() => new DictColumn()))());
    }
  }

  get size(): number {
    return this.ids.size;
  }
  get slotCapacity(): number {
    return this.end;
  }

  private addColumn(name: string, c: Column): Column {
    c.resize(this.capacity);
    this.columns.set(name, c);
    this.layout.push({ name, column: c });
    return c;
  }

  private resizeAll(capacity: number): void {
    this.capacity = capacity;
    this.ids.resize(capacity);
    this.net?.resize(capacity);
    for (const c of this.columns.values()) c?.resize(capacity);
  }

  private grow(min: number): void {
    if (min > this.capacity) this.resizeAll(Math.max(16, min, Math.ceil(this.capacity * 1.5)));
  }

  /** Makes room for `count` more rows at once (a bulk load that knows its size). */
  reserve(count: number): void {
    this.grow(this.end + count);
    this.ids.reserve(this.ids.size + count);
  }

  /** Releases the room growth left beyond the slots in use (after a bulk load). */
  fit(): void {
    this.resizeAll(this.end);
    this.ids.fit(this.size);
  }

  *slots(): IterableIterator<number> {
    for (let s = 0; s < this.end; s++) if (this.ids.has(s)) yield s;
  }

  has(slot: number): boolean {
    return slot < this.end && this.ids.has(slot);
  }
  slotOf(id: string): number | undefined {
    return this.ids.slotOf(id);
  }
  idOf(slot: number): string {
    return this.ids.get(slot) as string;
  }

  /**
   * Stores rows given as lists of values in `keys` order (a journal record's run of creates) as
   * insert() would store the objects they make, without making them; `stored` is given each
   * row's slot. Throws at a taken id (the rows before it stay stored). `guess`: the rows the
   * store is likely to hold once the load is done; when it must grow, it grows towards that (at
   * most 4 times what it then needs) rather than by half each time.
   */
  insertRun(
    keys: readonly string[],
    values: readonly (readonly unknown[])[],
    stored: (slot: number) => void,
    guess = 0,
  ): void {
    const need = this.end + values.length;
    if (need > this.capacity) this.reserve(Math.max(values.length, Math.min(guess, 4 * need) - this.end));
    const idAt = keys.indexOf('id'),
      net = this.net;
    const cols: (Column | null)[] = [],
      at: number[] = [],
      netAt: number[] = [];
    for (let k = 0; k < keys.length; k++) {
      let c = this.columns.get(keys[k]);
      if (c === undefined) c = this.addColumn(keys[k], new DictColumn());
      if (c) {
        cols.push(c);
        at.push(k);
      } else if (net?.names.has(keys[k])) netAt.push(k);
    }
    // The network fields of one row at a time, in one object reused (setRow reads them by name).
    const netRow: Record<string, unknown> = {};
    for (const v of values) {
      const fresh = !this.freeSlots.length;
      const slot = fresh ? this.end++ : this.freeSlots.pop()!;
      this.grow(slot + 1);
      if (!this.ids.set(slot, idAt < 0 ? undefined : v[idAt])) {
        if (fresh) this.end--;
        else this.freeSlots.push(slot);
        throw new Error(`duplicate id ${String(v[idAt])}`);
      }
      if (net) {
        for (const k of netAt) netRow[keys[k]] = v[k];
        net.setRow(slot, netRow);
      }
      for (let i = 0; i < cols.length; i++) cols[i]!.set(slot, v[at[i]]);
      stored(slot);
    }
  }

  /** Stores a row in a free slot; returns the slot, or -1 (nothing stored) when its id is taken. */
  insert(row: Row): number {
    const fresh = !this.freeSlots.length;
    const slot = fresh ? this.end++ : this.freeSlots.pop()!;
    this.grow(slot + 1);
    if (!this.ids.set(slot, row.id)) {
      if (fresh) this.end--;
      else this.freeSlots.push(slot);
      return -1;
    }
    this.net?.setRow(slot, row);
    // Rows of a load come with the same keys in the same order (and JSON gives them as the same
    // string objects): the previous row's keys and columns are tried before the map.
    const names = this.lastNames,
      cols = this.lastColumns;
    let k = 0;
    for (const name in row) {
      let c: Column | null | undefined;
      if (names[k] === name) c = cols[k];
      else {
        c = this.columns.get(name);
        if (c === undefined) c = this.addColumn(name, new DictColumn());
        names[k] = name;
        cols[k] = c;
      }
      k++;
      if (c) c.set(slot, row[name]);
    }
    return slot;
  }

  /** The rows as column arrays, live slots made dense in slot order (column-image.ts). */
  image(): TableImage {
    const live = new Int32Array(this.size);
    let n = 0;
    for (let s = 0; s < this.end; s++) if (this.ids.has(s)) live[n++] = s;
    const columns: ColumnImage[] = [];
    for (const e of this.layout) if (typeof e === 'object') columns.push(e.column.image(e.name, live));
    return { rows: n, ids: this.ids.idImage(live), net: this.net?.image(live) ?? null, columns };
  }

  /**
   * Takes an image into this empty store as slots 0 .. rows-1, each column's arrays as they are.
   * False, with nothing taken, when the image's columns are not this store's (a registry that
   * changed between the image and now): the caller then inserts its rows (`imageRows`).
   */
  load(img: TableImage): boolean {
    if (this.end || this.size) throw new Error('a table image loads into an empty store only');
    if (!this.net !== !img.net || (this.net && img.net && !this.net.fits(img.net))) return false;
    for (const c of img.columns) {
      const own = this.columns.get(c.name);
      if (own === null || (own === undefined && c.kind !== 'dict') || (own && !sameKind(own, c))) return false;
    }
    const rows = img.rows;
    this.ids.loadIds(img.ids, rows);
    if (this.net && img.net) this.net.load(img.net, rows);
    this.capacity = this.end = rows;
    const taken = new Set<Column>();
    for (const c of img.columns) {
      const col = this.columns.get(c.name) ?? this.addColumn(c.name, new DictColumn());
      col.load(c, rows);
      taken.add(col);
    }
    // Columns the image does not hold get room for its rows.
    for (const c of this.columns.values()) if (c && !taken.has(c)) c.resize(rows);
    return true;
  }

  remove(slot: number): void {
    this.ids.clear(slot);
    this.net?.clear(slot);
    for (const c of this.columns.values()) c?.clear(slot);
    this.freeSlots.push(slot);
  }

  /** The stored value of one field (shared between rows: do not change it). */
  value(slot: number, name: string): unknown {
    if (name === 'id') return this.ids.get(slot);
    if (this.net?.names.has(name)) return this.net.get(slot, name);
    return this.columns.get(name)?.get(slot);
  }

  /** A reader of one field, resolved once for a loop over many slots. */
  reader(name: string): (slot: number) => unknown {
    if (name === 'id') return (s) => this.ids.get(s);
    const net = this.net;
    if (net?.names.has(name)) return (s) => net.get(s, name);
    const c = this.columns.get(name);
    // A key no row has yet may come with a later write: look its column up at each read then.
    return c ? (s) => c.get(s) : (s) => this.columns.get(name)?.get(s);
  }

  /** A fresh row object: lists and objects copied, so callers may change what they get. */
  row(slot: number): Row {
    const out: Record<string, unknown> = {};
    for (const e of this.layout) {
      if (e === 'id') {
        const id = this.ids.get(slot);
        if (id !== undefined) out.id = id;
        continue;
      }
      if (e === 'net') {
        this.net!.fill(slot, out);
        continue;
      }
      const v = e.column.get(slot);
      if (v === undefined) continue;
      out[e.name] = Array.isArray(v) ? v.slice() : typeof v === 'object' && v !== null ? { ...v } : v;
    }
    return out as Row;
  }
}

const sameKind = (c: Column, img: ColumnImage) =>
  img.kind === 'dict' ? c instanceof DictColumn : c instanceof DateColumn;

/** The rows of an image as objects, in slot order (for a store whose columns differ from the image's). */
export function* imageRows(img: TableImage): Generator<Row> {
  const ids = new IdColumn(),
    net = img.net ? new NetColumn(img.net.names) : null;
  ids.loadIds(img.ids, img.rows);
  net?.load(img.net!, img.rows);
  const columns = img.columns.map((c) => {
    const col: Column = c.kind === 'date' ? new DateColumn() : new DictColumn();
    col.load(c, img.rows);
    return [c.name, col] as const;
  });
  for (let s = 0; s < img.rows; s++) {
    const row: Record<string, unknown> = {};
    if (ids.has(s)) row.id = ids.get(s);
    net?.fill(s, row);
    for (const [name, col] of columns) {
      const v = col.get(s);
      if (v !== undefined)
        row[name] = Array.isArray(v) ? v.slice() : typeof v === 'object' && v !== null ? { ...v } : v;
    }
    yield row as Row;
  }
}
