// The id column: a canonical UUID (lower-case 8-4-4-4-12) is kept as four 32-bit words, and an
// open-addressing table over those words answers id -> slot. A Map of id strings costs ~100 bytes
// per row; this costs 16 + ~10. Ids in any other form go to a plain Map beside it.
import { u32ToHex } from '../../net/ip.js';
import { cmpWords } from '../../net/words.js';
import { resized, type Column } from './column.js';

/** Value of a lower-case hex digit by char code, -1 for anything else (upper case would not
 * format back to the same text). */
const HEX = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) HEX['0123456789abcdef'.charCodeAt(i)] = i;

/** 8 hex digits of a UUID from `at`, skipping a dash at `dash` (or none when -1); NaN if not hex. */
function uuidWord(id: string, at: number, dash: number): number {
  let v = 0;
  for (let i = at, n = 0; n < 8; i++) {
    if (i === dash) continue;
    const c = id.charCodeAt(i);
    const d = c < 128 ? HEX[c] : -1;
    if (d < 0) return NaN;
    v = v * 16 + d;
    n++;
  }
  return v;
}

// A write looks its id up three times (exists? duplicate? store) with a foreign key's id between:
// the last two ids parsed are kept.
// Nothing an id can be equals the starting entries.
const NOTHING = Symbol('nothing');
const memoIds: unknown[] = [NOTHING, NOTHING];
const memoWords = new Uint32Array(8);
let memoNext = 0;

/** Writes the words of a canonical UUID to out[at..at+3]; false for any other value. */
function uuidWords(id: unknown, out: Uint32Array, at: number): boolean {
  const hit = id === memoIds[0] ? 0 : id === memoIds[1] ? 4 : -1;
  if (hit >= 0) { for (let k = 0; k < 4; k++) out[at + k] = memoWords[hit + k]; return true; }
  if (typeof id !== 'string' || id.length !== 36) return false;
  if (id.charCodeAt(8) !== 45 || id.charCodeAt(13) !== 45 || id.charCodeAt(18) !== 45 || id.charCodeAt(23) !== 45) return false;
  const a = uuidWord(id, 0, -1), b = uuidWord(id, 9, 13), c = uuidWord(id, 19, 23), d = uuidWord(id, 28, -1);
  if (a !== a || b !== b || c !== c || d !== d) return false;
  out[at] = a; out[at + 1] = b; out[at + 2] = c; out[at + 3] = d;
  const m = memoNext * 4;
  memoWords[m] = a; memoWords[m + 1] = b; memoWords[m + 2] = c; memoWords[m + 3] = d;
  memoIds[memoNext] = id;
  memoNext ^= 1;
  return true;
}

function formatUuid(w: Uint32Array, at: number): string {
  const b = u32ToHex(w[at + 1]), c = u32ToHex(w[at + 2]);
  return `${u32ToHex(w[at])}-${b.slice(0, 4)}-${b.slice(4)}-${c.slice(0, 4)}-${c.slice(4)}${u32ToHex(w[at + 3])}`;
}

/** murmur3's 32-bit finalizer: every input bit moves every output bit. */
function fmix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Hash of an id's words. Ids that differ only in a counter must not land side by side: with
 * linear probing, runs of neighbours make every miss walk the whole run. */
function hashWords(w: Uint32Array, at: number): number {
  return fmix(w[at] ^ fmix(w[at + 1] ^ fmix(w[at + 2] ^ fmix(w[at + 3])))) >>> 0;
}

export class IdColumn implements Column {
  private words = new Uint32Array(0);
  /** Slots whose id is held as words. */
  private packed = new Uint8Array(0);
  private readonly other = new Map<unknown, number>();
  private readonly otherBySlot = new Map<number, unknown>();
  /** Open addressing, linear probing: 1 + slot, 0 empty. Kept at most three quarters full. */
  private table = new Int32Array(16);
  /** Top byte of each entry's hash: a probe compares an id's words (a cache miss at a random
   * slot) only where this byte matches, about once in 256 passes over another entry. */
  private marks = new Uint8Array(16);
  private used = 0;
  private readonly probe = new Uint32Array(4);

  resize(capacity: number): void {
    this.words = resized(this.words, capacity, 4);
    this.packed = resized(this.packed, capacity);
  }

  get size(): number { return this.used + this.other.size; }

  /** Stores a slot's id; false (nothing stored) when another slot holds it already. */
  set(slot: number, id: unknown): boolean {
    this.clear(slot);
    if (!uuidWords(id, this.words, slot * 4)) {
      if (this.other.has(id)) return false;
      this.other.set(id, slot);
      this.otherBySlot.set(slot, id);
      return true;
    }
    if (!this.place(slot)) return false;
    this.packed[slot] = 1;
    if (++this.used * 4 > this.table.length * 3) this.rehash(this.table.length * 2);
    return true;
  }

  clear(slot: number): void {
    if (this.packed[slot]) {
      this.unplace(slot);
      this.packed[slot] = 0;
      this.used--;
      return;
    }
    const id = this.otherBySlot.get(slot);
    if (id === undefined && !this.otherBySlot.has(slot)) return;
    this.otherBySlot.delete(slot);
    this.other.delete(id);
  }

  get(slot: number): unknown {
    return this.packed[slot] ? formatUuid(this.words, slot * 4) : this.otherBySlot.get(slot);
  }

  has(slot: number): boolean { return this.packed[slot] === 1 || this.otherBySlot.has(slot); }

  slotOf(id: unknown): number | undefined {
    if (!uuidWords(id, this.probe, 0)) return this.other.get(id);
    const p = this.probe, t = this.table, marks = this.marks, mask = t.length - 1;
    const h = hashWords(p, 0), mark = h >>> 24;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const e = t[i];
      if (e === 0) return undefined;
      if (marks[i] === mark && this.sameWords(e - 1, p, 0)) return e - 1;
    }
  }

  /** Compares the ids of two slots (both as text order, which the words keep). */
  compare(a: number, b: number): number {
    if (this.packed[a] && this.packed[b]) return cmpWords(this.words, a * 4, this.words, b * 4);
    const x = String(this.get(a)), y = String(this.get(b));
    return x < y ? -1 : x > y ? 1 : 0;
  }

  private sameWords(slot: number, w: Uint32Array, at: number): boolean {
    return cmpWords(this.words, slot * 4, w, at) === 0;
  }

  /** Enters a slot's id in the table; false when another slot holds the same id (one probe
   * finds both). `fresh`: the id is known to be absent (a rehash), nothing to compare. */
  private place(slot: number, fresh = false): boolean {
    const t = this.table, marks = this.marks, mask = t.length - 1;
    const h = hashWords(this.words, slot * 4), mark = h >>> 24;
    let i = h & mask;
    for (; t[i] !== 0; i = (i + 1) & mask) if (!fresh && marks[i] === mark && this.sameWords(t[i] - 1, this.words, slot * 4)) return false;
    t[i] = slot + 1;
    marks[i] = mark;
    return true;
  }

  /** Removes a slot's entry, shifting later entries of the run back (no tombstones). */
  private unplace(slot: number): void {
    const t = this.table, marks = this.marks, mask = t.length - 1;
    let i = hashWords(this.words, slot * 4) & mask;
    while (t[i] !== slot + 1) i = (i + 1) & mask;
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      if (t[j] === 0) break;
      const k = hashWords(this.words, (t[j] - 1) * 4) & mask;
      // Entry at j may move to i when its home is not in (i, j] (cyclically).
      if (i <= j ? (k <= i || k > j) : (k <= i && k > j)) { t[i] = t[j]; marks[i] = marks[j]; i = j; }
    }
    t[i] = 0;
  }

  private rehash(size: number): void {
    this.table = new Int32Array(size);
    this.marks = new Uint8Array(size);
    // In slot order: each id's words are read in sequence, not at random as the old table holds them.
    const packed = this.packed;
    for (let s = 0; s < packed.length; s++) if (packed[s]) this.place(s, true);
  }

  /** Shrinks the slot table to what `count` ids need (after a bulk load). */
  fit(count: number): void {
    let size = 16;
    while (size * 3 < count * 4 + 4) size *= 2;
    if (size < this.table.length) this.rehash(size);
  }
}
