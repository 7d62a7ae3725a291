// Dictionary-coded column: each slot holds a small code, each distinct value is kept once.
// Choices, foreign keys, tag lists and custom-field objects repeat across rows; a code costs
// 4 bytes where a pointer and an object per row cost far more. Codes are reference-counted so
// updates do not leave dead values behind.
import { resized, type Column } from './column.js';
import { checkLength, type ColumnImage } from './column-image.js';

function isEmpty(v: object): boolean {
  for (const _ in v) return false;
  return true;
}

/** `[]` or `{}`: shared whatever the column judged (every row's empty tags are one value). */
function isEmptyValue(v: object): boolean {
  return Array.isArray(v) ? v.length === 0 : Object.getPrototypeOf(v) === Object.prototype && isEmpty(v);
}

/** No key stands for this value exactly: it is kept for its row alone. */
const UNSHARED = Symbol('unshared');

/** Does JSON read `v` back exactly? Not so for -0, NaN and Infinity (rewritten), undefined,
 * functions and symbols (dropped) or objects of other classes. */
function jsonExact(v: unknown, depth = 0): boolean {
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0);
    case 'string':
    case 'boolean':
      return true;
    case 'object':
      if (v === null) return true;
      if (depth > 32) return false;
      if (Array.isArray(v)) {
        for (const x of v) if (!jsonExact(x, depth + 1)) return false;
        return true;
      }
      // A Date, a Map, a class instance: JSON would not give it back as it is.
      if (Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null) return false;
      for (const k in v) if (!jsonExact((v as Record<string, unknown>)[k], depth + 1)) return false;
      return true;
    default:
      return false;
  }
}

/** Key of a list or object: its JSON, when reading that JSON back gives the value exactly. */
function objectKey(v: object): string | typeof UNSHARED {
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
  } else if (Object.getPrototypeOf(v) === Object.prototype && isEmpty(v)) return '{}';
  if (!jsonExact(v)) return UNSHARED;
  try {
    return JSON.stringify(v);
  } catch {
    return UNSHARED;
  }
}

/** Key of a scalar: itself, except -0, which a Map does not tell from 0. */
function scalarKey(v: unknown): unknown {
  return Object.is(v, -0) ? UNSHARED : v;
}

/** Most scalars a column's lists and objects may name by code: a code is one UTF-16 unit. */
const MAX_PARTS = 0xffff;

/** A scalar a part code may stand for: SameValueZero (a Map's equality) tells it from every other. */
function codable(x: unknown): boolean {
  const t = typeof x;
  return t === 'string' || t === 'boolean' || x === null || (t === 'number' && !Object.is(x, -0));
}

/** The column's own copy of a list or object (the caller may change the one it passed in): a
 * shallow one for a flat value, JSON's reading of its key when JSON keyed it, a clone otherwise. */
function ownCopy(v: object, flat: boolean, key: unknown): unknown {
  if (flat) return Array.isArray(v) ? v.slice() : { ...v };
  if (typeof key === 'string') return JSON.parse(key);
  return plainCopy(v);
}

/**
 * A deep copy of plain lists and objects, structuredClone's for anything else (several times faster on
 * JSON-like data).
 */
function plainCopy(v: unknown, depth = 0): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (depth <= 32 && Array.isArray(v)) return v.map((x) => plainCopy(x, depth + 1));
  if (depth <= 32 && Object.getPrototypeOf(v) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const k in v) {
      const x = plainCopy((v as Record<string, unknown>)[k], depth + 1);
      // An own `__proto__` key (JSON.parse makes one) stays a key: assigning it would set the prototype.
      if (k === '__proto__')
        Object.defineProperty(out, k, { value: x, enumerable: true, writable: true, configurable: true });
      else out[k] = x;
    }
    return out;
  }
  try {
    return structuredClone(v);
  } catch {
    return v;
  }
}

/**
 * Lists and objects interned before a column judges whether they repeat. A column whose objects
 * are nearly all new (a change record's object_data: the whole row, one per write) stops keying
 * them: a key costs a JSON text, its hash and a map entry per row (50 µs a row of object_data,
 * measured) to share nothing. Such values are kept unshared, each its row's own copy. Scalars are
 * judged the same way, apart: a column of nearly unique text (a change record's object id and
 * repr, descriptions of a bulk import) stops keeping a map entry per row (0.65 µs a row at a
 * million, measured, and more memory than the code it saves).
 */
const JUDGE_AFTER = 1024;
/** ... and it stops when fewer than 1 in this many were found already stored. */
const RARE_HITS = 16;

export class DictColumn implements Column {
  /** 0: no value (key absent); else 1 + index into `values`. */
  private codes = new Int32Array(0);
  private readonly values: unknown[] = [];
  private readonly refs: number[] = [];
  private readonly keys: unknown[] = [];
  private readonly free: number[] = [];
  private readonly scalars = new Map<unknown, number>();
  private readonly objects = new Map<unknown, number>();
  /** The last scalar coded and its index: loads repeat a column's value row after row. */
  private lastValue: unknown = undefined;
  private lastIndex = -1;
  /** Scalars seen inside lists and objects, by code: a flat list or object is keyed by its parts'
   * codes, a short string, where its JSON would be long and new to hash on every row. */
  private readonly parts = new Map<unknown, number>();
  /**
   * Lists and objects interned, and how many of them were found stored; `distinct`: keying them
   * stopped (JUDGE_AFTER).
   */
  private objectsSeen = 0;
  private objectHits = 0;
  private distinct = false;
  /** The same for scalars (a value equal to the one before is not counted: it costs no lookup). */
  private scalarsSeen = 0;
  private scalarHits = 0;
  private distinctScalars = false;

  resize(capacity: number): void {
    this.codes = resized(this.codes, capacity);
  }

  set(slot: number, value: unknown): void {
    this.clear(slot);
    if (value === undefined) return;
    this.codes[slot] = this.intern(value) + 1;
  }

  clear(slot: number): void {
    const c = this.codes[slot];
    if (!c) return;
    this.codes[slot] = 0;
    const i = c - 1;
    if (--this.refs[i] > 0) return;
    const v = this.values[i];
    (typeof v === 'object' && v !== null ? this.objects : this.scalars).delete(this.keys[i]);
    if (i === this.lastIndex) this.lastIndex = -1;
    this.values[i] = this.keys[i] = undefined;
    this.free.push(i);
  }

  get(slot: number): unknown {
    const c = this.codes[slot];
    return c ? this.values[c - 1] : undefined;
  }

  /** Codes renumbered to the values the slots of `live` hold, in order of first use. */
  image(name: string, live: Int32Array): ColumnImage {
    const codes = new Int32Array(live.length),
      renumber = new Int32Array(this.values.length + 1),
      values: unknown[] = [];
    for (let i = 0; i < live.length; i++) {
      const c = this.codes[live[i]];
      if (!c) continue;
      if (!renumber[c]) {
        values.push(this.values[c - 1]);
        renumber[c] = values.length;
      }
      codes[i] = renumber[c];
    }
    return { kind: 'dict', name, codes, values };
  }

  /**
   * Keys each distinct value once (as `intern` would) and counts its rows from the codes: no
   * value is hashed per row. Values that key alike (JSON gave two kept-apart values one form)
   * become one; a value no slot names is let go.
   */
  load(img: ColumnImage, rows: number): boolean {
    if (img.kind !== 'dict') return false;
    if (this.values.length) throw new Error('a column image loads into an empty column only');
    checkLength(`${img.name} codes`, img.codes, rows);
    const n = img.values.length,
      to = new Int32Array(n + 1);
    let merged = false;
    for (let i = 0; i < n; i++) {
      const value = img.values[i];
      const isObject = typeof value === 'object' && value !== null;
      const flat = isObject ? this.flatKey(value as object) : null;
      const key = flat ?? (isObject ? objectKey(value) : scalarKey(value));
      const map = isObject ? this.objects : this.scalars;
      const known = key === UNSHARED ? undefined : map.get(key);
      if (known !== undefined) {
        to[i + 1] = known + 1;
        merged = true;
        continue;
      }
      const at = this.values.length;
      this.values.push(value);
      this.refs.push(0);
      this.keys.push(key === UNSHARED ? Symbol('unshared') : key);
      map.set(this.keys[at], at);
      to[i + 1] = at + 1;
    }
    const codes = img.codes,
      refs = this.refs;
    for (let s = 0; s < rows; s++) {
      const c = codes[s];
      if (c === 0) continue;
      if (!(c > 0 && c <= n)) throw new RangeError(`table image: ${img.name} names value ${c} of ${n} at slot ${s}`);
      const k = merged ? (codes[s] = to[c]) : c;
      refs[k - 1]++;
    }
    this.codes = codes;
    for (let i = 0; i < this.values.length; i++)
      if (refs[i] === 0) {
        const v = this.values[i];
        (typeof v === 'object' && v !== null ? this.objects : this.scalars).delete(this.keys[i]);
        this.values[i] = this.keys[i] = undefined;
        this.free.push(i);
      }
    return true;
  }

  private intern(value: unknown): number {
    if (this.lastIndex >= 0 && Object.is(value, this.lastValue)) {
      this.refs[this.lastIndex]++;
      return this.lastIndex;
    }
    const isObject = typeof value === 'object' && value !== null;
    if (isObject && this.distinct && !isEmptyValue(value)) return this.unshared(plainCopy(value));
    if (!isObject && this.distinctScalars) {
      const i = this.unshared(value);
      this.remember(value, i, false);
      return i;
    }
    const flat = isObject ? this.flatKey(value as object) : null;
    const key = flat ?? (isObject ? objectKey(value) : scalarKey(value));
    const map = isObject ? this.objects : this.scalars;
    let i = key === UNSHARED ? undefined : map.get(key);
    if (isObject) {
      if (!this.distinct) this.judge(i !== undefined);
    } else if (++this.scalarsSeen <= JUDGE_AFTER) this.judgeScalar(i !== undefined);
    if (i !== undefined) {
      this.refs[i]++;
      this.remember(value, i, isObject);
      return i;
    }
    i = this.free.pop() ?? this.values.length;
    this.values[i] = isObject ? ownCopy(value as object, flat !== null, key) : value;
    this.refs[i] = 1;
    this.keys[i] = key === UNSHARED ? Symbol('unshared') : key;
    map.set(this.keys[i], i);
    this.remember(value, i, isObject);
    return i;
  }

  /** Counts an object interned; once JUDGE_AFTER were, stops keying them if they rarely repeat. */
  private judge(hit: boolean): void {
    if (hit) this.objectHits++;
    if (++this.objectsSeen === JUDGE_AFTER) this.distinct = this.objectHits * RARE_HITS < JUDGE_AFTER;
  }

  private judgeScalar(hit: boolean): void {
    if (hit) this.scalarHits++;
    if (this.scalarsSeen === JUDGE_AFTER) this.distinctScalars = this.scalarHits * RARE_HITS < JUDGE_AFTER;
  }

  /** A value kept for one row: no key a later value could find it by (clear() finds none to delete). */
  private unshared(copy: unknown): number {
    const i = this.free.pop() ?? this.values.length;
    this.values[i] = copy;
    this.refs[i] = 1;
    this.keys[i] = UNSHARED;
    return i;
  }

  /** Code of a scalar inside a list or object, -1 when it has none and no more can be given. */
  private part(x: unknown): number {
    const c = this.parts.get(x);
    if (c !== undefined) return c;
    if (this.parts.size >= MAX_PARTS) return -1;
    this.parts.set(x, this.parts.size + 1);
    return this.parts.size;
  }

  /**
   * Key of a list of scalars ('L' and a code per element) or of a plain object with scalar values
   * ('O' and a code per key and per value), or null for anything else (JSON keys it then). A
   * value's form never changes: codes are never taken back, and once they run out a value with a
   * new part always goes to JSON.
   */
  private flatKey(v: object): string | null {
    let key: string;
    if (Array.isArray(v)) {
      key = 'L';
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        const c = codable(x) ? this.part(x) : -1;
        if (c < 0) return null;
        key += String.fromCharCode(c);
      }
      return key;
    }
    if (Object.getPrototypeOf(v) !== Object.prototype) return null;
    key = 'O';
    for (const k in v) {
      if (!Object.hasOwn(v, k)) return null;
      const x: unknown = (v as Record<string, unknown>)[k];
      const ck = this.part(k),
        cx = codable(x) ? this.part(x) : -1;
      if (ck < 0 || cx < 0) return null;
      key += String.fromCharCode(ck, cx);
    }
    return key;
  }

  private remember(value: unknown, i: number, isObject: boolean): void {
    if (isObject) return;
    this.lastValue = value;
    this.lastIndex = i;
  }
}
