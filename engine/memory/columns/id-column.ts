// The id column: an id of the column's style is kept as four 32-bit words, and an open-addressing
// table over those words answers id -> slot. A Map of id strings costs ~100 bytes per row; this
// costs 16 + ~10. A canonical UUID (lower-case 8-4-4-4-12) is its 128 bits (mark 1); an integer id
// (canonical decimal text up to 2^53 - 1) is 0, 0, its high and low 32 bits (mark 2), so that the
// words of either compare as the style orders its ids. The mark says how a slot's words read, so an
// image reads back in a column of either style. Ids in any other form go to a plain Map beside it
// and are ordered by the style's compare on their text.
import { u32ToHex } from '../../net/ip.js';
import { cmpWords } from '../../net/words.js';
import { UUID_IDS, type IdStyle } from '../../schema/id-style.js';
import { resized } from './column.js';
import { checkLength, gather, type IdImage } from './column-image.js';

/** Value of a lower-case hex digit by char code; anything else (upper case would not format back
 * to the same text) holds a value with the sign bit set once shifted, so that a block of four
 * digits with one bad char comes out negative. Indexed by any UTF-16 unit: no range test. */
const HEX = new Int32Array(65536).fill(-1 << 16);
for (let i = 0; i < 16; i++) HEX['0123456789abcdef'.charCodeAt(i)] = i;

/** Four hex digits from `i` as a number, negative if one is not a lower-case hex digit. */
function hex4(id: string, i: number): number {
  return (
    (HEX[id.charCodeAt(i)] << 12) |
    (HEX[id.charCodeAt(i + 1)] << 8) |
    (HEX[id.charCodeAt(i + 2)] << 4) |
    HEX[id.charCodeAt(i + 3)]
  );
}

/** Writes the words of a canonical UUID to out[at..at+3]; false for any other value. */
function uuidWords(id: unknown, out: Uint32Array, at: number): boolean {
  if (typeof id !== 'string' || id.length !== 36) return false;
  if (id.charCodeAt(8) !== 45 || id.charCodeAt(13) !== 45 || id.charCodeAt(18) !== 45 || id.charCodeAt(23) !== 45)
    return false;
  const a0 = hex4(id, 0),
    a1 = hex4(id, 4),
    b0 = hex4(id, 9),
    b1 = hex4(id, 14);
  const c0 = hex4(id, 19),
    c1 = hex4(id, 24),
    d0 = hex4(id, 28),
    d1 = hex4(id, 32);
  if ((a0 | a1 | b0 | b1 | c0 | c1 | d0 | d1) < 0) return false;
  out[at] = a0 * 65536 + a1;
  out[at + 1] = b0 * 65536 + b1;
  out[at + 2] = c0 * 65536 + c1;
  out[at + 3] = d0 * 65536 + d1;
  return true;
}

const TWO32 = 4294967296;

/** Writes the words of a canonical integer id to out[at..at+3]; false for any other value. */
function integerWords(id: unknown, out: Uint32Array, at: number): boolean {
  if (typeof id !== 'string' || id.length === 0 || id.length > 16) return false;
  let n = id.charCodeAt(0) - 48;
  if (n < 1 || n > 9) return false;
  for (let i = 1; i < id.length; i++) {
    const d = id.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    n = n * 10 + d;
  }
  if (n > Number.MAX_SAFE_INTEGER) return false;
  out[at] = 0;
  out[at + 1] = 0;
  out[at + 2] = Math.floor(n / TWO32);
  out[at + 3] = n >>> 0;
  return true;
}

const formatInteger = (w: Uint32Array, at: number): string => String(w[at + 2] * TWO32 + w[at + 3]);

/** How a slot's words read, by its mark (0: not packed). */
const PACKED_UUID = 1,
  PACKED_INTEGER = 2;

function formatUuid(w: Uint32Array, at: number): string {
  const b = u32ToHex(w[at + 1]),
    c = u32ToHex(w[at + 2]);
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

export class IdColumn {
  /** Packs an id of the column's style into words; its mark. */
  private readonly pack: (id: unknown, out: Uint32Array, at: number) => boolean;
  private readonly mark: number;
  private words = new Uint32Array(0);
  /** Slots whose id is held as words: PACKED_UUID or PACKED_INTEGER, 0 for none. */
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

  /** `style`: the ids it packs, and their order (a table of a `uuidIds` resource is given UUID_IDS). */
  constructor(private readonly style: IdStyle = UUID_IDS) {
    const integer = style.name === 'integer';
    this.pack = integer ? integerWords : uuidWords;
    this.mark = integer ? PACKED_INTEGER : PACKED_UUID;
  }

  resize(capacity: number): void {
    this.words = resized(this.words, capacity, 4);
    this.packed = resized(this.packed, capacity);
  }

  get size(): number {
    return this.used + this.other.size;
  }

  /** Stores a slot's id; false (nothing stored) when another slot holds it already. */
  set(slot: number, id: unknown): boolean {
    this.clear(slot);
    if (!this.pack(id, this.words, slot * 4)) {
      if (this.other.has(id)) return false;
      this.other.set(id, slot);
      this.otherBySlot.set(slot, id);
      return true;
    }
    if (!this.place(slot)) return false;
    this.packed[slot] = this.mark;
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
    const m = this.packed[slot];
    return m === PACKED_UUID
      ? formatUuid(this.words, slot * 4)
      : m === PACKED_INTEGER
        ? formatInteger(this.words, slot * 4)
        : this.otherBySlot.get(slot);
  }

  has(slot: number): boolean {
    return this.packed[slot] !== 0 || this.otherBySlot.has(slot);
  }

  /** The highest integer id held as words (0 when none): where a store's counter of new ids must be. */
  maxInteger(): number {
    let hi = 0,
      lo = 0;
    const w = this.words,
      packed = this.packed;
    for (let s = 0; s < packed.length; s++)
      if (packed[s] === PACKED_INTEGER && (w[s * 4 + 2] > hi || (w[s * 4 + 2] === hi && w[s * 4 + 3] > lo))) {
        hi = w[s * 4 + 2];
        lo = w[s * 4 + 3];
      }
    return hi * TWO32 + lo;
  }

  slotOf(id: unknown): number | undefined {
    if (!this.pack(id, this.probe, 0)) return this.other.get(id);
    const p = this.probe,
      t = this.table,
      marks = this.marks,
      mask = t.length - 1;
    const h = hashWords(p, 0),
      mark = h >>> 24;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const e = t[i];
      if (e === 0) return undefined;
      if (marks[i] === mark && this.sameWords(e - 1, p, 0)) return e - 1;
    }
  }

  /**
   * A test of `id <op> value` on slots that compares words, no id text made (a cursor page reads
   * every row's id). For a value that is not an id of the style: in a UUID column null (the caller
   * compares text, the UUID order), in an integer column a test on the ids' text in code point order
   * (as a database compares a bigint id with text that is no number: the id as text).
   */
  rangeTester(op: 'lt' | 'lte' | 'gt' | 'gte', value: unknown): ((slot: number) => boolean) | null {
    const v = new Uint32Array(4);
    const holds = (c: number) => (op === 'lt' ? c < 0 : op === 'lte' ? c <= 0 : op === 'gt' ? c > 0 : c >= 0);
    if (!this.pack(value, v, 0)) {
      if (this.mark === PACKED_UUID || typeof value !== 'string') return null;
      return (slot) => {
        if (!this.has(slot)) return false;
        const id = String(this.get(slot));
        return holds(id < value ? -1 : id > value ? 1 : 0);
      };
    }
    const text = value as string,
      mark = this.mark;
    return (slot) => {
      if (this.packed[slot] === mark) return holds(cmpWords(this.words, slot * 4, v, 0));
      const id = this.get(slot);
      return id !== undefined && holds(this.style.compare(String(id), text));
    };
  }

  /** Compares the ids of two slots in the style's order (which the words of its ids keep). */
  compare(a: number, b: number): number {
    const m = this.packed[a];
    if (m !== 0 && m === this.packed[b]) return cmpWords(this.words, a * 4, this.words, b * 4);
    return this.style.compare(String(this.get(a)), String(this.get(b)));
  }

  /** The ids of the slots in `live`, as slots 0 .. live.length-1. */
  idImage(live: Int32Array): IdImage {
    const other: [number, unknown][] = [];
    for (let i = 0; i < live.length; i++)
      if (!this.packed[live[i]] && this.otherBySlot.has(live[i])) other.push([i, this.otherBySlot.get(live[i])]);
    return { words: gather(this.words, live, 4), packed: gather(this.packed, live), other };
  }

  /**
   * Takes the ids of an image into an empty column (slots 0 .. rows-1) and builds the slot table
   * once, sized for them. Throws on an id held twice, leaving the column empty.
   */
  loadIds(img: IdImage, rows: number): void {
    if (this.size) throw new Error('an id image loads into an empty column only');
    checkLength('id words', img.words, rows * 4);
    checkLength('id marks', img.packed, rows);
    this.words = img.words;
    this.packed = img.packed;
    let used = 0;
    for (let s = 0; s < rows; s++) if (img.packed[s]) used++;
    let size = 16;
    while (size * 3 < used * 4 + 4) size *= 2;
    this.table = new Int32Array(size);
    this.marks = new Uint8Array(size);
    this.used = used;
    const fail = (why: string) => {
      this.words = new Uint32Array(0);
      this.packed = new Uint8Array(0);
      this.table = new Int32Array(16);
      this.marks = new Uint8Array(16);
      this.used = 0;
      this.other.clear();
      this.otherBySlot.clear();
      throw new RangeError(`table image: ${why}`);
    };
    for (let s = 0; s < rows; s++) if (img.packed[s] && !this.place(s)) fail(`id ${String(this.get(s))} is held twice`);
    for (const [s, id] of img.other) {
      if (!(s >= 0 && s < rows) || img.packed[s] || this.otherBySlot.has(s) || this.other.has(id))
        fail(`id ${String(id)} at slot ${s} is held twice or out of place`);
      this.other.set(id, s);
      this.otherBySlot.set(s, id);
    }
  }

  private sameWords(slot: number, w: Uint32Array, at: number): boolean {
    return cmpWords(this.words, slot * 4, w, at) === 0;
  }

  /** Enters a slot's id in the table; false when another slot holds the same id (one probe
   * finds both). `fresh`: the id is known to be absent (a rehash), nothing to compare. */
  private place(slot: number, fresh = false): boolean {
    const t = this.table,
      marks = this.marks,
      mask = t.length - 1;
    const h = hashWords(this.words, slot * 4),
      mark = h >>> 24;
    let i = h & mask;
    for (; t[i] !== 0; i = (i + 1) & mask)
      if (!fresh && marks[i] === mark && this.sameWords(t[i] - 1, this.words, slot * 4)) return false;
    t[i] = slot + 1;
    marks[i] = mark;
    return true;
  }

  /** Removes a slot's entry, shifting later entries of the run back (no tombstones). */
  private unplace(slot: number): void {
    const t = this.table,
      marks = this.marks,
      mask = t.length - 1;
    let i = hashWords(this.words, slot * 4) & mask;
    while (t[i] !== slot + 1) i = (i + 1) & mask;
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      if (t[j] === 0) break;
      const k = hashWords(this.words, (t[j] - 1) * 4) & mask;
      // Entry at j may move to i when its home is not in (i, j] (cyclically).
      if (i <= j ? k <= i || k > j : k <= i && k > j) {
        t[i] = t[j];
        marks[i] = marks[j];
        i = j;
      }
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

  /** Grows the slot table once for `count` ids (a bulk load that knows its size) instead of doubling. */
  reserve(count: number): void {
    let size = this.table.length;
    while (size * 3 < count * 4 + 4) size *= 2;
    if (size > this.table.length) this.rehash(size);
  }

  /** Shrinks the slot table to what `count` ids need (after a bulk load). */
  fit(count: number): void {
    let size = 16;
    while (size * 3 < count * 4 + 4) size *= 2;
    if (size < this.table.length) this.rehash(size);
  }
}
