// One resource's rows in memory with the indexes the evaluator uses. Rows live in slots (dense
// integers) of a column store, so indexes hold small numbers; every index follows insert/remove.
import type { ResourceDef } from '../schema/types.js';
import { idStyleOf, UUID_IDS, type IdStyle } from '../schema/id-style.js';
import { ContainmentIndex } from '../net/containment-index.js';
import { maxLength, type Family } from '../net/ip.js';
import type { NetNode } from '../plan/nodes.js';
import { RowStore, imageRows, type Row } from './row-store.js';
import type { TableImage } from './columns/column-image.js';
import { HashIndex, type HashKey } from './hash-index.js';
import { CI_KINDS, cfKeys, hashKey, HASHED_KINDS, lowerKey, SORTED_KINDS, type Equality } from './index-keys.js';
import { SortedIndex, type SortValue } from './sorted-index.js';
import { IdOrder } from './id-order.js';
import { TrigramIndex } from './trigram-index.js';
import { STEP_ROWS, type Steps } from './steps.js';

export type { Row } from './row-store.js';
export type { Equality } from './index-keys.js';

export class IndexedTable {
  private readonly store: RowStore;
  /** Equality indexes, built at first use per field and kept up to date after (loads stay cheap). */
  private readonly hashes = new Map<string, HashIndex>();
  private readonly ciHashes = new Map<string, HashIndex>();
  private readonly hashable = new Set<string>();
  private readonly ciHashable = new Set<string>();
  private readonly sorted = new Map<string, { readonly idx: SortedIndex; readonly numbers: boolean }>();
  /** Built on first use per field, then kept up to date. */
  private readonly trigrams = new Map<string, TrigramIndex>();
  /** Custom field indexes, built on first use per name: values (list elements for multi-select). */
  private readonly cfHashes = new Map<string, { name: string; ci: boolean; idx: HashIndex }>();
  private readonly cfSorted = new Map<string, SortedIndex>();
  /** Sorted indexes, of fields and of custom fields: every write makes them re-sort at next use. */
  private readonly invalidated: SortedIndex[] = [];
  private readonly taggable: boolean;
  private tagIndex: HashIndex | null = null;
  /** (network-of-row, length): containment lookups. */
  readonly netIndex: ContainmentIndex | null;
  /** (address, full length): host/network address range lookups. For a table whose lookup field is
   * the network (prefixes) this is `netIndex` itself: it is ordered by network address already. */
  readonly addrIndex: ContainmentIndex | null;
  private readonly scratch = new Uint32Array(4);
  /** Slots in id order, built at the first cursor page. */
  private readonly idOrder: IdOrder;

  /** `ids`: the store's id style, which orders and packs the table's ids (UUIDs for a `uuidIds` resource). */
  /** The style of this table's ids: the store's, or UUIDs for a `uuidIds` resource. */
  readonly idStyle: IdStyle;

  constructor(
    readonly def: ResourceDef,
    ids: IdStyle = UUID_IDS,
  ) {
    this.idStyle = idStyleOf(def, ids);
    this.store = new RowStore(def, ids);
    this.idOrder = new IdOrder(
      (a, b) => this.store.ids.compare(a, b),
      () => this.store.slots(),
    );
    for (const f of def.fields) {
      if (HASHED_KINDS.has(f.kind)) this.hashable.add(f.name);
      if (CI_KINDS.has(f.kind)) this.ciHashable.add(f.name);
      const sortedKind = SORTED_KINDS[f.kind];
      if (sortedKind) {
        const read = this.store.reader(f.name);
        this.sorted.set(f.name, {
          idx: new SortedIndex(
            (s) => (read(s) ?? null) as SortValue | null,
            () => this.slots(),
          ),
          numbers: sortedKind.numbers,
        });
      }
    }
    this.invalidated.push(...[...this.sorted.values()].map((e) => e.idx));
    this.taggable = def.fields.some((f) => f.kind === 'tags');
    this.netIndex = this.store.net ? new ContainmentIndex() : null;
    this.addrIndex = this.store.net?.f.roleIsHost ? new ContainmentIndex() : this.netIndex;
  }

  get size(): number {
    return this.store.size;
  }
  /** One past the highest slot ever used: the length a per-slot array needs. */
  get slotCapacity(): number {
    return this.store.slotCapacity;
  }

  slots(): IterableIterator<number> {
    return this.store.slots();
  }

  slotOf(id: string): number | undefined {
    return this.store.slotOf(id);
  }
  has(id: string): boolean {
    return this.store.slotOf(id) !== undefined;
  }
  /** A fresh object for the row in a slot (built from the columns). */
  row(slot: number): Row | undefined {
    return this.store.has(slot) ? this.store.row(slot) : undefined;
  }
  get(id: string): Row | undefined {
    const s = this.store.slotOf(id);
    return s === undefined ? undefined : this.store.row(s);
  }
  *all(): IterableIterator<Row> {
    for (const s of this.store.slots()) yield this.store.row(s);
  }
  /** The id of the row in a slot, without building the row. */
  idOf(slot: number): string {
    return this.store.idOf(slot);
  }
  /** Compares the ids of two slots in the style's order (UUIDs as text, integers as numbers). */
  compareIds(a: number, b: number): number {
    return this.store.ids.compare(a, b);
  }
  /** The highest integer id the table holds (0: none). */
  maxIntegerId(): number {
    return this.store.ids.maxInteger();
  }
  /** One field's value in a slot (shared: do not change it). */
  value(slot: number, field: string): unknown {
    return this.store.value(slot, field);
  }
  /** A reader of one field for loops over many slots. */
  reader(field: string): (slot: number) => unknown {
    return this.store.reader(field);
  }
  /** A test of slots against a network lookup (always false on a table without networks). */
  netMatcher(n: NetNode): (slot: number) => boolean {
    const net = this.store.net;
    if (!net) return () => false;
    if (n.op === 'child_of') {
      const kids = new Set(this.childSlots(n));
      return (s) => kids.has(s);
    }
    return net.matcher(n);
  }
  /** Slots of the direct children of a block (`child_of`), in index order: one pass over its range. */
  childSlots(n: NetNode): number[] {
    if (!this.netIndex || !this.store.net) return [];
    return this.store.net.directChildren(this.netIndex.containedIn(n.family, n.network, n.length, false));
  }
  /** Order of two slots by (family, network or host address, length); rows without one last. */
  compareNetworks(a: number, b: number, host = false): number {
    return this.store.net?.compareOrder(a, b, host) ?? 0;
  }
  netFamily(slot: number): Family | 0 {
    return this.store.net?.familyOf(slot) ?? 0;
  }
  /** Do two slots hold the same network (family, address, length)? */
  sameNetwork(a: number, b: number): boolean {
    return this.store.net?.sameNetwork(a, b) ?? false;
  }

  /** Tag id -> slots of the rows carrying it; built at first use like the equality indexes (a
   * bulk load does not pay for it), then kept up to date. Null for a resource without tags. */
  get tags(): HashIndex | null {
    if (!this.taggable) return null;
    if (!this.tagIndex) {
      const idx = new HashIndex(),
        read = this.reader('tags');
      for (const s of this.slots()) for (const t of (read(s) as string[] | undefined) ?? []) idx.add(t, s);
      this.tagIndex = idx;
    }
    return this.tagIndex;
  }

  /** Exact-value index of a field, or null when the field is not indexable. */
  hashOf(field: string): HashIndex | null {
    return this.lazyHash(this.hashes, this.hashable, field, hashKey);
  }

  /**
   * hashOf in steps: a first build pauses every STEP_ROWS rows (a related count must not hold the
   * event loop while it indexes a large table). Kept only when the steps ran to the end; a caller
   * driving them with runStepwise starts again when a write lands during a pause.
   */
  *hashOfSteps(field: string): Steps<HashIndex | null> {
    const built = this.hashes.get(field);
    if (built || !this.hashable.has(field)) return built ?? null;
    const idx = new HashIndex(),
      read = this.reader(field);
    let n = 0;
    for (const s of this.slots()) {
      idx.add(hashKey(read(s)), s);
      if (++n % STEP_ROWS === 0) yield;
    }
    this.hashes.set(field, idx);
    return idx;
  }

  /** Lower-cased value index of a text field, or null. */
  ciHashOf(field: string): HashIndex | null {
    return this.lazyHash(this.ciHashes, this.ciHashable, field, lowerKey);
  }

  private lazyHash(
    built: Map<string, HashIndex>,
    allowed: ReadonlySet<string>,
    field: string,
    key: (v: unknown) => HashKey,
  ): HashIndex | null {
    let idx = built.get(field);
    if (idx) return idx;
    if (!allowed.has(field)) return null;
    idx = new HashIndex();
    const read = this.reader(field);
    for (const s of this.slots()) idx.add(key(read(s)), s);
    built.set(field, idx);
    return idx;
  }

  /** Equality on a field through its index (lower-cased text when `ci`); null when the field has none. */
  fieldEquality(field: string, ci: boolean, values: readonly unknown[]): Equality | null {
    const idx = ci ? this.ciHashOf(field) : this.hashOf(field);
    if (!idx) return null;
    return {
      idx,
      keys: values.map((v) => (ci ? String(v).toLowerCase() : hashKey(v))),
      label: ci ? `hash(lower(${field}))` : `hash(${field})`,
    };
  }

  /** Equality on a custom field (each element of a list value); `ci`: text lower-cased. */
  cfEquality(name: string, ci: boolean, values: readonly unknown[]): Equality {
    return {
      idx: this.cfHash(name, ci),
      keys: values.map((v) => (ci ? (lowerKey(v) ?? hashKey(v)) : hashKey(v))),
      label: ci ? `cf_hash(lower(${name}))` : `cf_hash(${name})`,
    };
  }

  /** The substring index of a text field, built at first use; null for fields that are not text. */
  trigram(field: string): TrigramIndex | null {
    let idx = this.trigrams.get(field);
    if (idx) return idx;
    if (!this.ciHashable.has(field)) return null;
    idx = new TrigramIndex();
    const read = this.reader(field);
    for (const s of this.slots()) idx.add(read(s), s);
    this.trigrams.set(field, idx);
    return idx;
  }

  /** Equality index over one custom field's values (each element of a list); `ci`: lower-cased text. */
  cfHash(name: string, ci = false): HashIndex {
    const key = `${ci ? 'ci' : 'cs'}:${name}`;
    let entry = this.cfHashes.get(key);
    if (!entry) {
      const idx = new HashIndex();
      const read = this.reader('custom_fields');
      for (const s of this.slots()) for (const k of cfKeys(read(s), name, ci)) idx.add(k, s);
      entry = { name, ci, idx };
      this.cfHashes.set(key, entry);
    }
    return entry.idx;
  }

  /**
   * The sorted index of `field` for a range bound of `valueType`; none when the predicate compares
   * another type (a number bound on a date-time, text on an integer: no row matches, as on SQL).
   */
  sortedFor(field: string, valueType: string): SortedIndex | undefined {
    const e = this.sorted.get(field);
    return e && (valueType === 'number') === e.numbers ? e.idx : undefined;
  }

  /** Range index over one custom field's values of one type (numbers, or strings such as dates). */
  cfRange(name: string, type: 'number' | 'string'): SortedIndex {
    const key = `${name}:${type}`;
    let idx = this.cfSorted.get(key);
    if (!idx) {
      const read = this.reader('custom_fields');
      idx = new SortedIndex(
        (s) => {
          const v = (read(s) as Record<string, unknown> | undefined)?.[name];
          return typeof v === type ? (v as SortValue) : null;
        },
        () => this.slots(),
      );
      this.cfSorted.set(key, idx);
      this.invalidated.push(idx);
    }
    return idx;
  }

  /** Every stored slot in id order (a view, valid until the next write): cursor pages walk it. */
  idOrdered(): Int32Array {
    return this.idOrder.slots();
  }

  /** `id <op> value` tested on the id column's words; null when the value is not a canonical id. */
  idRangeTester(op: 'lt' | 'lte' | 'gt' | 'gte', value: unknown): ((slot: number) => boolean) | null {
    return this.store.ids.rangeTester(op, value);
  }

  /** Makes room for `count` more rows at once (a load that knows its size). */
  reserve(count: number): void {
    this.store.reserve(count);
  }

  /** Sorts what the indexes hold unsorted now rather than in the next query, and gives back the
   * room the columns grew into (after a bulk load). */
  flushIndexes(): void {
    this.store.fit();
    this.netIndex?.flush();
    if (this.addrIndex !== this.netIndex) this.addrIndex?.flush();
  }

  /** Stores a row known to have a free id (a snapshot, an undo). */
  insert(row: Row): void {
    if (!this.add(row)) throw new Error(`duplicate id ${row.id}`);
  }

  /** Stores a row and indexes it; false (nothing stored) when its id is taken. */
  add(row: Row): boolean {
    const slot = this.store.insert(row);
    if (slot < 0) return false;
    this.indexStored(slot);
    return true;
  }

  /** Stores rows known to have free ids, given as lists of values in `keys` order (a journal
   * record's run of creates: storage/memory/journal-rows.ts), as insert() would the objects they
   * make; `guess`: the rows the table will likely hold at the end of the load (RowStore.insertRun). */
  insertRun(keys: readonly string[], values: readonly (readonly unknown[])[], guess = 0): void {
    this.store.insertRun(keys, values, (slot) => this.indexStored(slot), guess);
  }

  /** Enters a newly stored row in the indexes. */
  private indexStored(slot: number): void {
    this.indexRow(slot, true);
    this.indexNetwork(slot);
    this.idOrder.added(slot);
  }

  /** The rows as column arrays (a snapshot's content; column-image.ts). */
  image(): TableImage {
    return this.store.image();
  }

  /**
   * Loads an image into this empty table: the columns take its arrays, the network indexes take
   * each row's words (sorted once, by `flushIndexes`), the other indexes are built at first use
   * as after any load. An image whose columns this registry no longer has is inserted row by row.
   */
  loadImage(img: TableImage): void {
    if (this.size || this.slotCapacity)
      throw new Error(`${this.def.name}: a table image loads into an empty table only`);
    if (!this.store.load(img)) {
      for (const row of imageRows(img)) this.insert(row);
      return;
    }
    this.hashes.clear();
    this.ciHashes.clear();
    this.trigrams.clear();
    this.cfHashes.clear();
    this.tagIndex = null;
    this.idOrder.drop();
    for (const idx of this.invalidated) idx.invalidate();
    for (let s = 0; s < img.rows; s++) this.indexNetwork(s);
  }

  /** Enters a stored row's network in the containment indexes. */
  private indexNetwork(slot: number): void {
    const net = this.store.net,
      family = net?.familyOf(slot);
    if (net && family && this.netIndex && this.addrIndex) {
      const w = this.scratch;
      net.wordsOf(slot, false, w);
      this.netIndex.addWords(slot, family, w, 0, net.lengthOf(slot));
      // Addresses are also looked up by their host.
      if (this.addrIndex !== this.netIndex) {
        net.wordsOf(slot, true, w);
        this.addrIndex.addWords(slot, family, w, 0, maxLength(family));
      }
    }
  }

  /** Removes a row; returns it as it was. */
  remove(id: string): Row | undefined {
    const slot = this.store.slotOf(id);
    if (slot === undefined) return undefined;
    const row = this.store.row(slot);
    this.indexRow(slot, false);
    this.idOrder.removed(slot);
    this.netIndex?.remove(slot);
    if (this.addrIndex !== this.netIndex) this.addrIndex?.remove(slot);
    this.store.remove(slot);
    return row;
  }

  replace(row: Row): void {
    this.remove(row.id);
    this.insert(row);
  }

  /** Adds a stored row to the indexes built so far, or takes it out (before its removal). */
  private indexRow(slot: number, add: boolean): void {
    for (const idx of this.invalidated)
      if (add) idx.added(slot);
      else idx.invalidate();
    // A bulk load usually finds none built: nothing to read back.
    if (!(this.hashes.size || this.ciHashes.size || this.trigrams.size || this.cfHashes.size || this.tagIndex)) return;
    const get = (name: string) => this.store.value(slot, name);
    for (const [name, idx] of this.hashes) {
      const k = hashKey(get(name));
      if (add) idx.add(k, slot);
      else idx.remove(k, slot);
    }
    for (const [name, idx] of this.ciHashes) {
      const k = lowerKey(get(name));
      if (add) idx.add(k, slot);
      else idx.remove(k, slot);
    }
    for (const [name, idx] of this.trigrams) {
      if (add) idx.add(get(name), slot);
      else idx.remove(get(name), slot);
    }
    if (this.cfHashes.size) {
      const cfs = get('custom_fields');
      for (const { name, ci, idx } of this.cfHashes.values())
        for (const k of cfKeys(cfs, name, ci)) {
          if (add) idx.add(k, slot);
          else idx.remove(k, slot);
        }
    }
    if (this.tagIndex)
      for (const t of (get('tags') as string[] | undefined) ?? []) {
        if (add) this.tagIndex.add(t, slot);
        else this.tagIndex.remove(t, slot);
      }
  }
}
