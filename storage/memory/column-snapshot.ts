// The `memory:/dir` snapshot compaction writes (snapshot.bin): each table's columns as memory holds
// them (engine/memory/columns/column-image.ts), so a start copies typed arrays into place instead
// of parsing a JSON value and a UUID per row and coding every value again.
//
// After an 8-byte mark the file is a run of blocks, each `u32 length, u32 CRC-32 of the payload,
// payload` (little-endian). First block: `{"snapshot":3,"endian":"LE","tables":n,"journal":g}`,
// `journal` the generation of the journal that follows the snapshot (every record of an earlier
// one is in it; journal-format.ts; absent in snapshots written before it was added), and in an
// integer store `"ids":{resource: n}`, each counter of new ids (a deleted highest row leaves no other
// trace of its id; absent: none, as in every UUID store). Per table: a
// JSON header (resource, rows, the network field names, each column's kind and name, the length of
// each value list), then the id words and marks, the network marks and words, and per column its
// codes or times and states, in that order; a list of values (a dictionary's distinct values, the
// values kept apart by slot) follows its arrays as JSON arrays of at most LIST_CHUNK items. Last
// block: `{"end":n}`. A block whose checksum or length is wrong, or a file that stops before its
// end block, is damage (SnapshotDamage names the byte): the caller refuses to start.
import fs from 'node:fs';
import os from 'node:os';
import { crc32 } from 'node:zlib';
import type { ColumnImage, NetImage, SlotValues, TableImage } from '../../engine/memory/columns/column-image.js';

export const COLUMN_SNAPSHOT_MARK = Buffer.from('NISNAP3\n', 'latin1');
const HEAD = 8;
const LIST_CHUNK = 65536;
const ENDIAN = os.endianness();

/** One table of a snapshot. */
export interface SnapshotImage {
  readonly resource: string;
  readonly image: TableImage;
}

interface ColumnHeader {
  readonly kind: 'dict' | 'date';
  readonly name: string;
  readonly listed: number;
}
interface TableHeader {
  readonly resource: string;
  readonly rows: number;
  readonly net: NetImage['names'] | null;
  readonly columns: readonly ColumnHeader[];
  readonly idOther: number;
  readonly netText: number;
  readonly netDerived: number;
}

/** A snapshot file that cannot be read as written: where and why. */
export class SnapshotDamage extends Error {
  constructor(
    readonly file: string,
    readonly offset: number,
    readonly reason: string,
  ) {
    super(`snapshot ${file} is damaged at byte ${offset}: ${reason}`);
  }
}

type Typed = Uint8Array<ArrayBuffer> | Int32Array<ArrayBuffer> | Uint32Array<ArrayBuffer> | Float64Array<ArrayBuffer>;
/** A typed array's constructor, which says how many bytes one element takes. */
type TypedArrayOf<T extends Typed> = { new (n: number): T; readonly BYTES_PER_ELEMENT: number };

/**
 * Writes a snapshot of `tables` through `write` (which writes a buffer whole or throws); `journal`:
 * the generation of the journal that follows it (left out: a snapshot without the mark, as before).
 */
export function writeColumnSnapshot(
  tables: Iterable<SnapshotImage>,
  count: number,
  write: (b: Buffer) => void,
  journal?: number,
  ids?: IdCounters,
): void {
  for (const b of columnSnapshotParts(tables, count, journal, ids)) write(b);
}

/** Per resource, the last integer id its counter handed out or saw. */
export type IdCounters = Readonly<Record<string, number>>;

/**
 * The bytes of a snapshot of `tables`, in order, as they are made: a table's image is asked for
 * only when the parts before it are taken (a caller that writes between parts holds one table's
 * image at a time, and may let other work run in between). A part may be a view of a column's
 * array: write it before the column changes.
 */
export function* columnSnapshotParts(
  tables: Iterable<SnapshotImage>,
  count: number,
  journal?: number,
  ids?: IdCounters,
): Generator<Buffer> {
  function* block(payload: Buffer): Generator<Buffer> {
    const head = Buffer.allocUnsafe(HEAD);
    head.writeUInt32LE(payload.length, 0);
    head.writeUInt32LE(crc32(payload), 4);
    yield head;
    if (payload.length) yield payload;
  }
  const json = (v: unknown) => block(Buffer.from(JSON.stringify(v), 'utf8'));
  const bytes = (a: Typed) => block(Buffer.from(a.buffer, a.byteOffset, a.byteLength));
  function* list(items: readonly unknown[]): Generator<Buffer> {
    for (let i = 0; i < items.length; i += LIST_CHUNK) yield* json(items.slice(i, i + LIST_CHUNK));
  }
  yield COLUMN_SNAPSHOT_MARK;
  yield* json({
    snapshot: 3,
    endian: ENDIAN,
    tables: count,
    ...(journal === undefined ? {} : { journal }),
    ...(ids && Object.keys(ids).length ? { ids } : {}),
  });
  let written = 0;
  for (const { resource, image: img } of tables) {
    const header: TableHeader = {
      resource,
      rows: img.rows,
      net: img.net?.names ?? null,
      columns: img.columns.map((c) => ({
        kind: c.kind,
        name: c.name,
        listed: c.kind === 'dict' ? c.values.length : c.other.length,
      })),
      idOther: img.ids.other.length,
      netText: img.net?.otherText.length ?? 0,
      netDerived: img.net?.otherDerived.length ?? 0,
    };
    yield* json(header);
    yield* bytes(img.ids.words);
    yield* bytes(img.ids.packed);
    yield* list(img.ids.other);
    if (img.net) {
      yield* bytes(img.net.meta);
      yield* bytes(img.net.words);
      yield* list(img.net.otherText);
      yield* list(img.net.otherDerived);
    }
    for (const c of img.columns) {
      if (c.kind === 'dict') {
        yield* bytes(c.codes);
        yield* list(c.values);
      } else {
        yield* bytes(c.ms);
        yield* bytes(c.state);
        yield* list(c.other);
      }
    }
    written++;
  }
  if (written !== count) throw new Error(`snapshot: ${written} tables written, ${count} announced`);
  yield* json({ end: count });
}

/** Does a file start with this format's mark? */
export function isColumnSnapshot(head: Buffer): boolean {
  return (
    head.length >= COLUMN_SNAPSHOT_MARK.length &&
    head.subarray(0, COLUMN_SNAPSHOT_MARK.length).equals(COLUMN_SNAPSHOT_MARK)
  );
}

/** Reads the blocks of a snapshot file in order, each checked before it is used. */
class BlockReader {
  private pos = 0;
  private readonly head = Buffer.allocUnsafe(HEAD);
  private readonly size: number;

  constructor(
    private readonly fd: number,
    private readonly file: string,
  ) {
    this.size = fs.fstatSync(fd).size;
  }

  get offset(): number {
    return this.pos;
  }
  get fileSize(): number {
    return this.size;
  }

  damage(reason: string, at = this.pos): never {
    throw new SnapshotDamage(this.file, at, reason);
  }

  /** Reads exactly `into.length` bytes at the current position. */
  private read(into: Uint8Array): void {
    for (let off = 0; off < into.length;) {
      const n = fs.readSync(this.fd, into, off, into.length - off, this.pos + off);
      if (n <= 0) this.damage('the file ends early');
      off += n;
    }
  }

  mark(): void {
    const m = Buffer.alloc(COLUMN_SNAPSHOT_MARK.length);
    this.read(m);
    if (!m.equals(COLUMN_SNAPSHOT_MARK)) this.damage('not a snapshot of this format (its first bytes differ)');
    this.pos += m.length;
  }

  /** The next block's payload into a buffer `alloc` gives for its length. */
  private next<T extends Uint8Array>(alloc: (length: number) => T): T {
    const at = this.pos;
    if (at + HEAD > this.size) this.damage('the file ends before its last block (cut short)');
    this.read(this.head);
    const length = this.head.readUInt32LE(0),
      sum = this.head.readUInt32LE(4);
    if (at + HEAD + length > this.size)
      this.damage(`a block of ${length} bytes runs past the end of the file (cut short)`, at);
    this.pos += HEAD;
    const out = alloc(length);
    this.read(out);
    if (crc32(out) !== sum) this.damage('a block whose checksum does not match', at);
    this.pos += length;
    return out;
  }

  json(): unknown {
    const at = this.pos;
    const b = this.next((n) => Buffer.allocUnsafe(n));
    try {
      return JSON.parse(b.toString('utf8'));
    } catch {
      return this.damage('a block that does not parse', at);
    }
  }

  /** The next block as `count` elements of a typed array (read straight into the array's memory). */
  array<T extends Typed>(make: TypedArrayOf<T>, count: number, what: string): T {
    const at = this.pos;
    let arr: T | null = null;
    this.next((n) => {
      const bytes = count * make.BYTES_PER_ELEMENT;
      if (n !== bytes) this.damage(`${what}: a block of ${n} bytes where ${bytes} were expected`, at);
      arr = new make(count);
      return new Uint8Array(arr.buffer);
    });
    return arr!;
  }

  list<T = unknown>(count: number, what: string): T[] {
    const out: T[] = [];
    while (out.length < count) {
      const at = this.pos,
        chunk = this.json();
      if (!Array.isArray(chunk) || chunk.length === 0 || out.length + chunk.length > count)
        this.damage(`${what}: a list block of the wrong length`, at);
      for (const x of chunk) out.push(x as T);
    }
    return out;
  }
}

const isSlotValues = (list: unknown[], rows: number): list is [number, unknown][] =>
  list.every((e) => Array.isArray(e) && e.length === 2 && Number.isInteger(e[0]) && e[0] >= 0 && e[0] < rows);

function checkHeader(h: TableHeader): boolean {
  const whole = (n: unknown) => Number.isInteger(n) && (n as number) >= 0;
  return (
    typeof h === 'object' &&
    h !== null &&
    typeof h.resource === 'string' &&
    whole(h.rows) &&
    whole(h.idOther) &&
    whole(h.netText) &&
    whole(h.netDerived) &&
    (h.net === null || (typeof h.net === 'object' && typeof h.net.source === 'string')) &&
    Array.isArray(h.columns) &&
    h.columns.every((c) => (c.kind === 'dict' || c.kind === 'date') && typeof c.name === 'string' && whole(c.listed))
  );
}

/** What a snapshot's first block says besides its tables. */
export interface SnapshotMark {
  /** The generation of the journal that follows the snapshot; null: a snapshot written without it. */
  readonly journal: number | null;
  /** The counters of new ids (an integer store's); empty when it holds none. */
  readonly ids: IdCounters;
}

const isCounters = (v: unknown): v is IdCounters =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  Object.values(v).every((n) => Number.isSafeInteger(n) && (n as number) >= 0);

/** Reads a snapshot file, giving each table's image to `visit` as soon as it is whole. Throws SnapshotDamage. */
export function readColumnSnapshot(file: string, visit: (resource: string, image: TableImage) => void): SnapshotMark {
  const fd = fs.openSync(file, 'r');
  try {
    const r = new BlockReader(fd, file);
    r.mark();
    const first = r.json() as {
      snapshot?: unknown;
      endian?: unknown;
      tables?: unknown;
      journal?: unknown;
      ids?: unknown;
    };
    if (first?.snapshot !== 3 || !Number.isInteger(first.tables))
      r.damage('its first block is not a snapshot header', COLUMN_SNAPSHOT_MARK.length);
    if (first.journal !== undefined && !(Number.isSafeInteger(first.journal) && (first.journal as number) >= 1))
      r.damage('its first block names no journal generation it follows', COLUMN_SNAPSHOT_MARK.length);
    if (first.ids !== undefined && !isCounters(first.ids))
      r.damage('its first block holds counters of new ids that are not whole numbers', COLUMN_SNAPSHOT_MARK.length);
    if (first.endian !== ENDIAN)
      r.damage(`written on a ${String(first.endian)} machine; this one is ${ENDIAN}`, COLUMN_SNAPSHOT_MARK.length);
    for (let t = 0; t < (first.tables as number); t++) {
      const at = r.offset;
      const h = r.json() as TableHeader;
      if (!checkHeader(h)) r.damage('a table header of an unknown form', at);
      const rows = h.rows,
        slotValues = (count: number, what: string): SlotValues => {
          const list = r.list(count, what);
          return isSlotValues(list, rows) ? list : r.damage(`${what}: a (slot, value) pair out of place`);
        };
      const ids = {
        words: r.array(Uint32Array, rows * 4, 'id words'),
        packed: r.array(Uint8Array, rows, 'id marks'),
        other: slotValues(h.idOther, 'ids'),
      };
      const net: NetImage | null = h.net
        ? {
            names: h.net,
            meta: r.array(Uint8Array, rows * 4, 'network marks'),
            words: r.array(Uint32Array, rows * 4, 'network words'),
            otherText: slotValues(h.netText, 'network texts'),
            otherDerived: slotValues(h.netDerived, 'network fields'),
          }
        : null;
      const columns = h.columns.map((c): ColumnImage =>
        c.kind === 'dict'
          ? { kind: 'dict', name: c.name, codes: r.array(Int32Array, rows, c.name), values: r.list(c.listed, c.name) }
          : {
              kind: 'date',
              name: c.name,
              ms: r.array(Float64Array, rows, c.name),
              state: r.array(Uint8Array, rows, c.name),
              other: slotValues(c.listed, c.name),
            },
      );
      // The engine checks what a checksum cannot (an id held twice, a code past its dictionary).
      try {
        visit(h.resource, { rows, ids, net, columns });
      } catch (e) {
        if (e instanceof RangeError) r.damage(`${h.resource}: ${e.message}`, at);
        throw e;
      }
    }
    const end = r.json() as { end?: unknown };
    if (end?.end !== first.tables) r.damage('its last block is not the end of the snapshot');
    if (r.fileSize !== r.offset) r.damage('bytes follow the end of the snapshot');
    return {
      journal: first.journal === undefined ? null : (first.journal as number),
      ids: (first.ids as IdCounters | undefined) ?? {},
    };
  } finally {
    fs.closeSync(fd);
  }
}
