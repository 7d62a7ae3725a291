// The network field of prefixes and addresses and the fields derived from it (network or host,
// broadcast, prefix_length, family), held as family, length and four 32-bit address words per
// slot. Texts are formatted when a row is read; network lookups compare words, no strings.
import type { FieldDef } from '../../schema/types.js';
import type { NetNode } from '../../plan/nodes.js';
import { assertNever } from '../../plan/nodes.js';
import {
  broadcastOf,
  formatAddress,
  formatCidr,
  formatV4,
  isCanonicalV6,
  networkOf,
  parseCidrWords,
  parseV4Text,
  u32ToHex,
  type AddrHex,
  type Family,
} from '../../net/ip.js';
import { addrWords, cmpWords, MASK, wordBits } from '../../net/words.js';
import { OTHER, PACKED, resized } from './column.js';
import { checkLength, gather, type NetImage } from './column-image.js';

/** Byte offsets in a slot's four meta bytes. */
const FAMILY = 0,
  LENGTH = 1,
  TEXT = 2,
  DERIVED = 3;

/** Names of the source field and of each derived field the registry marks. */
export interface NetFieldNames {
  readonly source: string;
  readonly role: string;
  readonly roleIsHost: boolean;
  readonly broadcast?: string;
  readonly length?: string;
  readonly family?: string;
}

export function netFieldNames(fields: readonly FieldDef[]): NetFieldNames | null {
  const source = fields.find((f) => f.kind === 'prefix' || f.kind === 'address');
  const role = fields.find((f) => f.netRole);
  if (!source || !role) return null;
  const part = (p: string) => fields.find((f) => f.netPart === p)?.name;
  return {
    source: source.name,
    role: role.name,
    roleIsHost: role.netRole === 'host',
    broadcast: part('broadcast'),
    length: part('length'),
    family: part('family'),
  };
}

export class NetColumn {
  /** Per slot, side by side (one cache line for a row's reads): family (0: none), length, text
   * state and derived-fields state. */
  private meta = new Uint8Array(0);
  private words = new Uint32Array(0);
  private readonly otherText = new Map<number, unknown>();
  private readonly otherDerived = new Map<number, Record<string, unknown>>();
  readonly names: ReadonlySet<string>;
  private readonly derivedList: readonly string[];

  constructor(readonly f: NetFieldNames) {
    this.names = new Set([f.source, f.role, f.broadcast, f.length, f.family].filter((n): n is string => !!n));
    this.derivedList = [f.role, f.broadcast, f.length, f.family].filter((n): n is string => !!n);
  }

  resize(capacity: number): void {
    this.meta = resized(this.meta, capacity, 4);
    this.words = resized(this.words, capacity, 4);
  }

  image(live: Int32Array): NetImage {
    const otherText: [number, unknown][] = [],
      otherDerived: [number, unknown][] = [];
    for (let i = 0; i < live.length; i++) {
      const s = live[i];
      if (this.meta[s * 4 + TEXT] === OTHER) otherText.push([i, this.otherText.get(s)]);
      if (this.meta[s * 4 + DERIVED] === OTHER) otherDerived.push([i, this.otherDerived.get(s)]);
    }
    return {
      names: this.f,
      meta: gather(this.meta, live, 4),
      words: gather(this.words, live, 4),
      otherText,
      otherDerived,
    };
  }

  /** Does an image hold the fields this column holds, named alike? */
  fits(img: NetImage): boolean {
    const a = img.names,
      b = this.f;
    return (
      a.source === b.source &&
      a.role === b.role &&
      a.roleIsHost === b.roleIsHost &&
      a.broadcast === b.broadcast &&
      a.length === b.length &&
      a.family === b.family
    );
  }

  /** Takes an image of `rows` slots into this empty column (check `fits` first). */
  load(img: NetImage, rows: number): void {
    checkLength('network marks', img.meta, rows * 4);
    checkLength('network words', img.words, rows * 4);
    for (const [s, v] of img.otherDerived)
      if (typeof v !== 'object' || v === null || img.meta[s * 4 + DERIVED] !== OTHER)
        throw new RangeError(`table image: derived network fields at slot ${s} out of place`);
    this.meta = img.meta;
    this.words = img.words;
    this.otherText.clear();
    this.otherDerived.clear();
    for (const [s, v] of img.otherText) this.otherText.set(s, v);
    for (const [s, v] of img.otherDerived) this.otherDerived.set(s, v as Record<string, unknown>);
  }

  /** Stores a row's network fields; true when the network field parsed (the indexes then take it). */
  setRow(slot: number, row: Record<string, unknown>): boolean {
    this.clear(slot);
    const value = row[this.f.source];
    const enc = typeof value === 'string' ? parseCidrWords(value, this.words, slot * 4) : -1;
    if (enc >= 0) {
      this.meta[slot * 4 + FAMILY] = enc >> 8;
      this.meta[slot * 4 + LENGTH] = enc & 255;
    }
    if (value !== undefined) {
      if (enc >= 0 && this.isCanonical(slot, value as string)) this.meta[slot * 4 + TEXT] = PACKED;
      else {
        this.meta[slot * 4 + TEXT] = OTHER;
        this.otherText.set(slot, value);
      }
    }
    // The common case first: every derived field present and as this column would give it back
    // (derivedMatch fails on a missing one).
    if (this.meta[slot * 4 + TEXT] === PACKED && this.derivedMatch(slot, value as string, row)) {
      this.meta[slot * 4 + DERIVED] = PACKED;
      return true;
    }
    let present = 0;
    for (const name of this.derivedList) if (row[name] !== undefined) present++;
    if (present) {
      const given: Record<string, unknown> = {};
      for (const name of this.derivedList) if (row[name] !== undefined) given[name] = row[name];
      this.meta[slot * 4 + DERIVED] = OTHER;
      this.otherDerived.set(slot, given);
    }
    return enc >= 0;
  }

  /** Are the row's derived values those this column would give back? (Its text is canonical.) */
  private derivedMatch(slot: number, text: string, row: Record<string, unknown>): boolean {
    const f = this.f,
      len = this.meta[slot * 4 + LENGTH];
    if (f.length && row[f.length] !== len) return false;
    if (f.family && row[f.family] !== this.meta[slot * 4 + FAMILY]) return false;
    // The role address is the text before the slash when the text has no host bits or is the host.
    const role = row[f.role];
    if (typeof role !== 'string') return false;
    const v4 = this.meta[slot * 4 + FAMILY] === 4;
    if (f.roleIsHost || this.hostIsNetwork(slot)) {
      if (!(text.length > role.length && text.startsWith(role) && text.charCodeAt(role.length) === 47)) return false;
    } else if (
      !(v4
        ? parseV4Text(role) === this.netWord(slot, 0)
        : isCanonicalV6(role, 0, role.length, this.words, slot * 4, len))
    )
      return false;
    if (!f.broadcast) return true;
    const b = row[f.broadcast];
    if (typeof b !== 'string') return false;
    // An IPv4 text parses to one value only when written without leading zeros: no need to format.
    return v4
      ? parseV4Text(b) === (this.words[slot * 4] | ~MASK[len]) >>> 0
      : isCanonicalV6(b, 0, b.length, this.words, slot * 4, len, true);
  }

  /** Would the column write this very text? Checked without formatting: an IPv4 text parses only
   * with octets free of leading zeros; an IPv6 one is compared with what formatting would give. */
  private isCanonical(slot: number, text: string): boolean {
    const slash = text.indexOf('/');
    if (!(slash > 0 && (text.length === slash + 2 || text.charCodeAt(slash + 1) !== 48))) return false;
    return this.meta[slot * 4 + FAMILY] === 4 || isCanonicalV6(text, 0, slash, this.words, slot * 4);
  }

  /** Word k of the slot's network: its host word with the bits past its length cleared. */
  private netWord(slot: number, k: number): number {
    return (this.words[slot * 4 + k] & MASK[wordBits(this.meta[slot * 4 + LENGTH], k)]) >>> 0;
  }

  /** The slot's network (or host) words into out[at..at+3]. */
  wordsOf(slot: number, host: boolean, out: Uint32Array, at = 0): void {
    for (let k = 0; k < 4; k++) out[at + k] = host ? this.words[slot * 4 + k] : this.netWord(slot, k);
  }

  lengthOf(slot: number): number {
    return this.meta[slot * 4 + LENGTH];
  }

  clear(slot: number): void {
    if (this.meta[slot * 4 + TEXT] === OTHER) this.otherText.delete(slot);
    if (this.meta[slot * 4 + DERIVED] === OTHER) this.otherDerived.delete(slot);
    this.meta[slot * 4 + FAMILY] =
      this.meta[slot * 4 + LENGTH] =
      this.meta[slot * 4 + TEXT] =
      this.meta[slot * 4 + DERIVED] =
        0;
  }

  get(slot: number, name: string): unknown {
    const f = this.f;
    if (name === f.source) {
      const t = this.meta[slot * 4 + TEXT];
      return t === PACKED ? this.formatSource(slot) : t === OTHER ? this.otherText.get(slot) : undefined;
    }
    const d = this.meta[slot * 4 + DERIVED];
    if (d === OTHER) return this.otherDerived.get(slot)![name];
    if (d !== PACKED) return undefined;
    if (name === f.role) return this.formatAddr(slot, f.roleIsHost ? 'host' : 'network');
    if (name === f.broadcast) return this.formatAddr(slot, 'broadcast');
    if (name === f.length) return this.meta[slot * 4 + LENGTH];
    if (name === f.family) return this.meta[slot * 4 + FAMILY];
    return undefined;
  }

  /** Writes every present network field of a slot to `out`, in declaration order. */
  fill(slot: number, out: Record<string, unknown>): void {
    const f = this.f;
    const t = this.meta[slot * 4 + TEXT];
    if (t === PACKED) out[f.source] = this.formatSource(slot);
    else if (t === OTHER) out[f.source] = this.otherText.get(slot);
    const d = this.meta[slot * 4 + DERIVED];
    if (d === OTHER) Object.assign(out, this.otherDerived.get(slot));
    else if (d === PACKED) {
      out[f.role] =
        t === PACKED && (f.roleIsHost || this.hostIsNetwork(slot))
          ? (out[f.source] as string).slice(0, (out[f.source] as string).indexOf('/'))
          : this.formatAddr(slot, f.roleIsHost ? 'host' : 'network');
      if (f.broadcast) out[f.broadcast] = this.formatAddr(slot, 'broadcast');
      if (f.length) out[f.length] = this.meta[slot * 4 + LENGTH];
      if (f.family) out[f.family] = this.meta[slot * 4 + FAMILY];
    }
  }

  familyOf(slot: number): Family | 0 {
    return this.meta[slot * 4 + FAMILY] as Family | 0;
  }

  /** (family, address, length) order of two slots; no network sorts last. */
  compareOrder(a: number, b: number, host: boolean): number {
    const m = this.meta,
      fa = m[a * 4 + FAMILY],
      fb = m[b * 4 + FAMILY];
    if (fa !== fb) return !fa ? 1 : !fb ? -1 : fa < fb ? -1 : 1;
    if (!fa) return 0;
    const la = m[a * 4 + LENGTH],
      lb = m[b * 4 + LENGTH],
      w = this.words;
    for (let k = 0; k < 4; k++) {
      const x = host ? w[a * 4 + k] : this.netWord(a, k),
        y = host ? w[b * 4 + k] : this.netWord(b, k);
      if (x !== y) return x < y ? -1 : 1;
    }
    return la === lb ? 0 : la < lb ? -1 : 1;
  }

  sameNetwork(a: number, b: number): boolean {
    return this.meta[a * 4 + FAMILY] !== 0 && this.compareOrder(a, b, false) === 0;
  }

  /** A test of one slot against a network lookup: same family always required. */
  matcher(n: NetNode): (slot: number) => boolean {
    const N = new Uint32Array(4),
      B = new Uint32Array(4),
      a = new Uint32Array(4),
      bc = new Uint32Array(4);
    addrWords(n.family, n.network, N, 0);
    addrWords(n.family, n.broadcast, B, 0);
    const L = n.length,
      fam = n.family,
      useHost = n.field === 'host',
      w = this.words;
    const famOk = (s: number) => this.meta[s * 4 + FAMILY] === fam;
    const cmp4 = (x: Uint32Array, y: Uint32Array) => cmpWords(x, 0, y, 0);
    // Row's address (host, or network = host masked to its length) into `a`.
    const addr = (s: number, host: boolean) => {
      this.wordsOf(s, host, a);
      return a;
    };
    const bcast = (s: number) => {
      const len = this.meta[s * 4 + LENGTH],
        words = fam === 4 ? 1 : 4;
      for (let k = 0; k < 4; k++) bc[k] = k < words ? (w[s * 4 + k] | ~MASK[wordBits(len, k)]) >>> 0 : 0;
      return bc;
    };
    const within = (x: Uint32Array) => cmp4(x, N) >= 0 && cmp4(x, B) <= 0;
    const covers = (s: number) => cmp4(addr(s, false), N) <= 0 && cmp4(bcast(s), B) >= 0;
    switch (n.op) {
      case 'equal':
        return (s) => famOk(s) && this.meta[s * 4 + LENGTH] === L && cmp4(addr(s, useHost), N) === 0;
      case 'addr_eq':
        return (s) => famOk(s) && cmp4(addr(s, useHost), N) === 0;
      case 'addr_in':
        return (s) => famOk(s) && within(addr(s, useHost));
      case 'contained':
        return (s) => famOk(s) && this.meta[s * 4 + LENGTH] > L && within(addr(s, false));
      case 'contained_or_equal':
        return (s) => famOk(s) && this.meta[s * 4 + LENGTH] >= L && within(addr(s, false));
      case 'contains':
        return (s) => famOk(s) && this.meta[s * 4 + LENGTH] < L && covers(s);
      case 'contains_or_equal':
        return (s) => famOk(s) && this.meta[s * 4 + LENGTH] <= L && covers(s);
      // Whether a prefix is a direct child depends on the other rows: IndexedTable.netMatcher answers it.
      case 'child_of':
        throw new Error('child_of is answered from the containment index (IndexedTable.netMatcher)');
      default:
        return assertNever(n.op);
    }
  }

  /**
   * Of slots in index order (network, then length), all inside one block, those no other of them
   * contains: the block's direct children (repeats of one child included). A child's descendants
   * follow it in that order, so one pass that skips past each child's broadcast finds them all.
   */
  directChildren(sorted: ArrayLike<number>): number[] {
    const out: number[] = [];
    const end = new Uint32Array(4),
      a = new Uint32Array(4);
    let cur = -1;
    for (let i = 0; i < sorted.length; i++) {
      const s = sorted[i];
      if (cur >= 0) {
        if (this.sameNetwork(s, cur)) {
          out.push(s);
          continue;
        }
        this.wordsOf(s, false, a);
        if (cmpWords(a, 0, end, 0) <= 0) continue; // inside the current child
      }
      cur = s;
      out.push(s);
      const len = this.meta[s * 4 + LENGTH],
        words = this.meta[s * 4 + FAMILY] === 4 ? 1 : 4;
      for (let k = 0; k < 4; k++) end[k] = k < words ? (this.words[s * 4 + k] | ~MASK[wordBits(len, k)]) >>> 0 : 0;
    }
    return out;
  }

  private formatSource(slot: number): string {
    const len = this.meta[slot * 4 + LENGTH];
    return this.meta[slot * 4 + FAMILY] === 4
      ? `${formatV4(this.words[slot * 4])}/${len}`
      : formatCidr(6, this.hostHex(slot), len);
  }

  /** The host, network or broadcast address of a slot as text. */
  private formatAddr(slot: number, which: 'host' | 'network' | 'broadcast'): string {
    const len = this.meta[slot * 4 + LENGTH];
    if (this.meta[slot * 4 + FAMILY] === 4) {
      const w = this.words[slot * 4],
        m = MASK[len];
      return formatV4(which === 'host' ? w : which === 'network' ? (w & m) >>> 0 : (w | ~m) >>> 0);
    }
    const h = this.hostHex(slot);
    return formatAddress({
      family: 6,
      hex: which === 'host' ? h : which === 'network' ? networkOf(6, h, len) : broadcastOf(6, h, len),
    });
  }

  private hostIsNetwork(slot: number): boolean {
    for (let k = 0; k < 4; k++) if (this.words[slot * 4 + k] !== this.netWord(slot, k)) return false;
    return true;
  }

  private hostHex(slot: number): AddrHex {
    const w = this.words,
      at = slot * 4;
    return this.meta[slot * 4 + FAMILY] === 4
      ? u32ToHex(w[at])
      : u32ToHex(w[at]) + u32ToHex(w[at + 1]) + u32ToHex(w[at + 2]) + u32ToHex(w[at + 3]);
  }
}
