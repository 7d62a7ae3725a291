// One resource's rows in memory with the indexes the evaluator uses. Rows live in slots
// (dense integers) so indexes hold small numbers; every index follows insert/remove.
import type { FieldDef, ResourceDef } from '../schema/types.js';
import { ContainmentIndex } from '../net/containment-index.js';
import { maxLength, parseCidr, type AddrHex, type Family } from '../net/ip.js';
import { HashIndex, type HashKey } from './hash-index.js';
import { SortedIndex, type SortValue } from './sorted-index.js';
import { TrigramIndex } from './trigram-index.js';

export type Row = Record<string, unknown> & { id: string };

/** Network key of a prefix or address row, kept beside the row so predicates never re-parse text. */
export interface NetKey {
  readonly family: Family; readonly network: AddrHex; readonly broadcast: AddrHex; readonly host: AddrHex; readonly length: number;
  /** Sort keys (family, address, length) as one string each: ordering compares them without allocating. */
  readonly networkOrder: string; readonly hostOrder: string;
}

const HASHED_KINDS = new Set(['uuid', 'slug', 'string', 'choice', 'fk', 'integer', 'boolean', 'mac', 'ip', 'prefix', 'address', 'datetime']);
const CI_KINDS = new Set(['slug', 'string', 'mac', 'ip', 'prefix', 'address']);
const SORTED_KINDS = new Set(['integer', 'datetime']);

/** Index keys of a custom field value: the scalar, or each scalar element of a list; none for null. */
/** Index keys of a custom field's value (each element of a list); `ci`: strings lower-cased. */
function cfKeys(row: Row, name: string, ci = false): HashKey[] {
  const v = (row.custom_fields as Record<string, unknown> | undefined)?.[name];
  if (v === null || v === undefined) return [];
  const items = Array.isArray(v) ? v : [v];
  const keys = items.filter((x) => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean') as HashKey[];
  return ci ? keys.map((k) => (typeof k === 'string' ? k.toLowerCase() : k)) : keys;
}

function lowerKey(v: unknown): HashKey {
  return typeof v === 'string' ? v.toLowerCase() : null;
}

function hashKey(v: unknown): HashKey {
  return v === undefined || v === null ? null : (v as HashKey);
}

/** An equality question put to a hash index: the index, one key per asked value, and its name for explain. */
export interface Equality { readonly idx: HashIndex; readonly keys: readonly HashKey[]; readonly label: string }

export class IndexedTable {
  private readonly rows: (Row | undefined)[] = [];
  private readonly slotById = new Map<string, number>();
  private readonly freeSlots: number[] = [];
  /** Equality indexes, built at first use per field and kept up to date after (loads stay cheap). */
  private readonly hashes = new Map<string, HashIndex>();
  private readonly ciHashes = new Map<string, HashIndex>();
  private readonly hashable = new Set<string>();
  private readonly ciHashable = new Set<string>();
  readonly sorted = new Map<string, SortedIndex>();
  /** Built on first use per field, then kept up to date. */
  private readonly trigrams = new Map<string, TrigramIndex>();
  /** Custom field indexes, built on first use per name: values (list elements for multi-select). */
  private readonly cfHashes = new Map<string, { name: string; ci: boolean; idx: HashIndex }>();
  private readonly cfSorted = new Map<string, SortedIndex>();
  readonly tags: HashIndex | null;
  /** (network-of-row, length): containment lookups. */
  readonly netIndex: ContainmentIndex | null;
  /** (address, full length): host/network address range lookups. */
  readonly addrIndex: ContainmentIndex | null;
  readonly netKeys: (NetKey | undefined)[] = [];
  private readonly netSource: FieldDef | undefined;

  constructor(readonly def: ResourceDef) {
    for (const f of def.fields) {
      if (HASHED_KINDS.has(f.kind)) this.hashable.add(f.name);
      if (CI_KINDS.has(f.kind)) this.ciHashable.add(f.name);
      if (SORTED_KINDS.has(f.kind)) {
        const name = f.name;
        this.sorted.set(name, new SortedIndex((s) => (this.rows[s]?.[name] ?? null) as SortValue | null, () => this.slots()));
      }
    }
    this.tags = def.fields.some((f) => f.kind === 'tags') ? new HashIndex() : null;
    this.netSource = def.fields.find((f) => f.kind === 'prefix' || f.kind === 'address');
    this.netIndex = this.netSource ? new ContainmentIndex() : null;
    this.addrIndex = this.netSource ? new ContainmentIndex() : null;
  }

  get size(): number { return this.slotById.size; }
  /** One past the highest slot ever used: the length a per-slot array needs. */
  get slotCapacity(): number { return this.rows.length; }

  *slots(): IterableIterator<number> {
    for (const s of this.slotById.values()) yield s;
  }

  slotOf(id: string): number | undefined { return this.slotById.get(id); }
  row(slot: number): Row | undefined { return this.rows[slot]; }
  get(id: string): Row | undefined {
    const s = this.slotById.get(id);
    return s === undefined ? undefined : this.rows[s];
  }
  *all(): IterableIterator<Row> {
    for (const s of this.slotById.values()) yield this.rows[s]!;
  }

  /** Exact-value index of a field, or null when the field is not indexable. */
  hashOf(field: string): HashIndex | null {
    return this.lazyHash(this.hashes, this.hashable, field, hashKey);
  }

  /** Lower-cased value index of a text field, or null. */
  ciHashOf(field: string): HashIndex | null {
    return this.lazyHash(this.ciHashes, this.ciHashable, field, lowerKey);
  }

  private lazyHash(built: Map<string, HashIndex>, allowed: ReadonlySet<string>, field: string, key: (v: unknown) => HashKey): HashIndex | null {
    let idx = built.get(field);
    if (idx) return idx;
    if (!allowed.has(field)) return null;
    idx = new HashIndex();
    for (const s of this.slots()) idx.add(key(this.rows[s]![field]), s);
    built.set(field, idx);
    return idx;
  }

  /** Equality on a field through its index (lower-cased text when `ci`); null when the field has none. */
  fieldEquality(field: string, ci: boolean, values: readonly unknown[]): Equality | null {
    const idx = ci ? this.ciHashOf(field) : this.hashOf(field);
    if (!idx) return null;
    return { idx, keys: values.map((v) => (ci ? String(v).toLowerCase() : hashKey(v))), label: ci ? `hash(lower(${field}))` : `hash(${field})` };
  }

  /** Equality on a custom field (each element of a list value); `ci`: text lower-cased. */
  cfEquality(name: string, ci: boolean, values: readonly unknown[]): Equality {
    return { idx: this.cfHash(name, ci), keys: values.map((v) => (ci ? lowerKey(v) ?? hashKey(v) : hashKey(v))), label: ci ? `cf_hash(lower(${name}))` : `cf_hash(${name})` };
  }

  /** The substring index of a text field, built at first use; null for fields that are not text. */
  trigram(field: string): TrigramIndex | null {
    let idx = this.trigrams.get(field);
    if (idx) return idx;
    if (!this.ciHashable.has(field)) return null;
    idx = new TrigramIndex();
    for (const s of this.slots()) idx.add(this.rows[s]![field], s);
    this.trigrams.set(field, idx);
    return idx;
  }

  /** Equality index over one custom field's values (each element of a list); `ci`: lower-cased text. */
  cfHash(name: string, ci = false): HashIndex {
    const key = `${ci ? 'ci' : 'cs'}:${name}`;
    let entry = this.cfHashes.get(key);
    if (!entry) {
      const idx = new HashIndex();
      for (const s of this.slots()) for (const k of cfKeys(this.rows[s]!, name, ci)) idx.add(k, s);
      entry = { name, ci, idx };
      this.cfHashes.set(key, entry);
    }
    return entry.idx;
  }

  /** Range index over one custom field's values of one type (numbers, or strings such as dates). */
  cfRange(name: string, type: 'number' | 'string'): SortedIndex {
    const key = `${name}:${type}`;
    let idx = this.cfSorted.get(key);
    if (!idx) {
      idx = new SortedIndex((s) => { const v = (this.rows[s]?.custom_fields as Record<string, unknown> | undefined)?.[name]; return typeof v === type ? (v as SortValue) : null; }, () => this.slots());
      this.cfSorted.set(key, idx);
    }
    return idx;
  }

  /** Sorts what the indexes hold unsorted now rather than in the next query (after a bulk load). */
  flushIndexes(): void {
    this.netIndex?.flush();
    this.addrIndex?.flush();
  }

  insert(row: Row): void {
    if (this.slotById.has(row.id)) throw new Error(`duplicate id ${row.id}`);
    const slot = this.freeSlots.pop() ?? this.rows.length;
    this.rows[slot] = row;
    this.slotById.set(row.id, slot);
    this.indexRow(row, slot, true);
  }

  remove(id: string): Row | undefined {
    const slot = this.slotById.get(id);
    if (slot === undefined) return undefined;
    const row = this.rows[slot]!;
    this.indexRow(row, slot, false);
    this.rows[slot] = undefined;
    this.slotById.delete(id);
    this.freeSlots.push(slot);
    return row;
  }

  replace(row: Row): void {
    this.remove(row.id);
    this.insert(row);
  }

  private indexRow(row: Row, slot: number, add: boolean): void {
    for (const [name, idx] of this.hashes) {
      const k = hashKey(row[name]);
      if (add) idx.add(k, slot); else idx.remove(k, slot);
    }
    for (const [name, idx] of this.ciHashes) {
      const k = lowerKey(row[name]);
      if (add) idx.add(k, slot); else idx.remove(k, slot);
    }
    for (const idx of this.sorted.values()) idx.invalidate();
    for (const [name, idx] of this.trigrams) { if (add) idx.add(row[name], slot); else idx.remove(row[name], slot); }
    for (const { name, ci, idx } of this.cfHashes.values()) for (const k of cfKeys(row, name, ci)) { if (add) idx.add(k, slot); else idx.remove(k, slot); }
    for (const idx of this.cfSorted.values()) idx.invalidate();
    if (this.tags) for (const t of (row.tags as string[] | undefined) ?? []) {
      if (add) this.tags.add(t, slot); else this.tags.remove(t, slot);
    }
    if (this.netSource && this.netIndex && this.addrIndex) {
      if (add) {
        const c = parseCidr(String(row[this.netSource.name]));
        if (!c) return;
        const len = String(c.length).padStart(3, '0');
        const key: NetKey = { family: c.family, network: c.network, broadcast: c.broadcast, host: c.host, length: c.length,
          networkOrder: `${c.family}${c.network}${len}`, hostOrder: `${c.family}${c.host}${len}` };
        this.netKeys[slot] = key;
        this.netIndex.add(slot, key.family, key.network, key.length);
        // Prefixes are looked up by their network address, addresses by their host.
        const addr = this.netSource.kind === 'prefix' ? key.network : key.host;
        this.addrIndex.add(slot, key.family, addr, maxLength(key.family));
      } else {
        this.netKeys[slot] = undefined;
        this.netIndex.remove(slot);
        this.addrIndex.remove(slot);
      }
    }
  }
}
