// The `memory:/dir` journal's record format, and the scan that tells good records from damage.
// A record is one line: `J1 <length> <crc32> <json>\n`, the length in bytes and the CRC-32 (hex)
// of the JSON batch (runs of like creates by columns: journal-rows.ts), so a torn or altered
// record is told from a good one without trusting JSON.
// Lines starting with `[` are the previous release's records (a bare JSON batch per line): read
// once, then rewritten in this format by the next compaction.
// A journal that compaction started carries its generation in its first record, framed the same
// way: `J1 <length> <crc32> {"journal":<generation>}` (encodeHeader). The snapshot names the
// generation of the journal that follows it, so a start tells a journal already folded into the
// snapshot (a compaction cut short) from the one to replay (journal.ts). A journal without it
// (earlier releases, or one no compaction has started yet) is generation 0.
import { isAscii } from 'node:buffer';
import fs from 'node:fs';
import { crc32 } from 'node:zlib';
import type { WriteOp } from '../types.js';
import { checkBatch, expandBatch, packBatch, type PackedBatch } from './journal-rows.js';

const MAGIC = 'J1';
const NL = 0x0a;

export function encodeRecord(batch: readonly WriteOp[]): Buffer {
  const json = Buffer.from(JSON.stringify(packBatch(batch)), 'utf8');
  const head = Buffer.from(`${MAGIC} ${json.length} ${crc32(json).toString(16).padStart(8, '0')} `, 'latin1');
  return Buffer.concat([head, json, Buffer.from('\n')]);
}

/** The first record of a journal compaction started: its generation (a whole number from 1). */
export function encodeHeader(generation: number): Buffer {
  if (!Number.isSafeInteger(generation) || generation < 1) throw new Error(`journal generation ${generation}`);
  const json = Buffer.from(JSON.stringify({ journal: generation }), 'utf8');
  return Buffer.concat([
    Buffer.from(`${MAGIC} ${json.length} ${crc32(json).toString(16).padStart(8, '0')} `, 'latin1'),
    json,
    Buffer.from('\n'),
  ]);
}

const headerOf = (v: unknown): number | null => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const g = (v as { journal?: unknown }).journal;
  return Number.isSafeInteger(g) && (g as number) >= 1 && Object.keys(v).length === 1 ? (g as number) : null;
};

/** Where the journal stops being readable, and why. */
export interface Damage {
  /** Byte offset of the first bad record. */
  readonly offset: number;
  readonly reason: string;
  /** Nothing readable follows it: a write cut short (never acknowledged), not a damaged middle. */
  readonly atEnd: boolean;
}

export interface Scan {
  readonly batches: WriteOp[][];
  /** Bytes of good records from the start (where a repair cuts). */
  readonly goodEnd: number;
  readonly damage: Damage | null;
  /** Some records are in the previous release's format. */
  readonly legacy: boolean;
  /** The generation its first record names; 0 for a journal without one. */
  readonly generation: number;
}

type Parsed =
  | { ok: true; batch: PackedBatch; end: number; legacy: boolean; header: number | null }
  | { ok: false; reason: string; end: number };

/** A parsed record: a batch (an array), or a journal's header (only as its first record). */
function parsed(value: unknown, end: number, legacy: boolean): Parsed {
  if (Array.isArray(value)) {
    const batch = checkBatch(value);
    return batch
      ? { ok: true, batch, end, legacy, header: null }
      : { ok: false, reason: 'record that is not a batch', end };
  }
  const header = legacy ? null : headerOf(value);
  return header === null
    ? { ok: false, reason: 'record that is not a batch', end }
    : { ok: true, batch: [], end, legacy, header };
}

/** A record's JSON as a string: ASCII (what the product's records nearly always are) is read as
 * latin1, the same characters, without the UTF-8 decoder (3x faster on a 2 MB record). */
const text = (json: Buffer): string => json.toString(isAscii(json) ? 'latin1' : 'utf8');

function parseAt(buf: Buffer, at: number): Parsed {
  const nl = buf.indexOf(NL, at);
  const lineEnd = nl < 0 ? buf.length : nl;
  const next = nl < 0 ? buf.length : nl + 1;
  if (buf[at] === 0x5b /* [ */) {
    if (nl < 0) return { ok: false, reason: 'record without its line end', end: next };
    let v: unknown;
    try {
      v = JSON.parse(text(buf.subarray(at, lineEnd)));
    } catch {
      return { ok: false, reason: 'record that does not parse', end: next };
    }
    return parsed(v, next, true);
  }
  const head = /^J1 (\d{1,12}) ([0-9a-f]{8}) /.exec(buf.toString('latin1', at, Math.min(buf.length, at + 32)));
  if (!head) return { ok: false, reason: 'record without a valid header', end: next };
  const start = at + head[0].length,
    len = Number(head[1]);
  // JSON text holds no raw line end, so a good record's line is exactly its header, length and \n.
  if (start + len !== lineEnd || nl < 0)
    return { ok: false, reason: `record whose length is not its stated ${len} bytes`, end: next };
  const json = buf.subarray(start, start + len);
  if (crc32(json).toString(16).padStart(8, '0') !== head[2])
    return { ok: false, reason: 'record whose checksum does not match', end: next };
  let v: unknown;
  try {
    v = JSON.parse(text(json));
  } catch {
    return { ok: false, reason: 'record that does not parse', end: next };
  }
  return parsed(v, next, false);
}

/** A header is good only as the first record (offset 0); anywhere else it is damage. */
const misplaced = (p: Parsed, first: boolean): Parsed =>
  p.ok && p.header !== null && !first
    ? { ok: false, reason: 'a journal header after the first record', end: p.end }
    : p;

/** Reads records until the first bad one; says whether anything readable follows it. */
export function scanJournal(buf: Buffer): Scan {
  const batches: WriteOp[][] = [];
  let at = 0,
    legacy = false,
    generation = 0;
  while (at < buf.length) {
    if (buf[at] === NL) {
      at++;
      continue;
    } // an empty line (the previous format wrote none, but allowed them)
    const p = misplaced(parseAt(buf, at), at === 0);
    if (!p.ok)
      return {
        batches,
        goodEnd: at,
        damage: { offset: at, reason: p.reason, atEnd: !readableAfter(buf, p.end) },
        legacy,
        generation,
      };
    if (p.header !== null) generation = p.header;
    else batches.push(expandBatch(p.batch));
    legacy ||= p.legacy;
    at = p.end;
  }
  return { batches, goodEnd: at, damage: null, legacy, generation };
}

/** Does a good record start at any line after `from`? */
function readableAfter(buf: Buffer, from: number): boolean {
  for (let at = from; at < buf.length;) {
    if (buf[at] === NL) {
      at++;
      continue;
    }
    const p = parseAt(buf, at);
    if (p.ok) return true;
    const nl = buf.indexOf(NL, at);
    if (nl < 0) return false;
    at = nl + 1;
  }
  return false;
}

/** What a streamed scan found, its batches given out one by one. */
export type StreamScan = Omit<Scan, 'batches'> & { readonly count: number };

const CHUNK = 8 * 1024 * 1024;

/**
 * scanJournal over a file read in chunks: each good record's batch goes to `visit` as soon as it
 * is read, so neither the file nor its parsed batches are ever whole in memory (a journal that
 * bench:data wrote holds 445 MB of JSON for 1M prefixes). After the first bad record the rest of
 * the file is read to tell a torn end from a damaged middle, as scanJournal does.
 */
export function scanJournalFile(file: string, visit: (batch: WriteOp[]) => void, chunkSize = CHUNK): StreamScan {
  return scanJournalRecords(file, (b) => visit(expandBatch(b)), chunkSize);
}

/** scanJournalFile giving each batch as the record holds it (runs of creates still by columns),
 * with the share of the file read up to its end (0 to 1). */
export function scanJournalRecords(
  file: string,
  visit: (batch: PackedBatch, read: number) => void,
  chunkSize = CHUNK,
): StreamScan {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      return { count: 0, goodEnd: 0, damage: null, legacy: false, generation: 0 };
    throw e;
  }
  try {
    const size = fs.fstatSync(fd).size;
    // `buf` holds the file from `base` on, `have` bytes of it: the start of a record a chunk cut
    // is moved to its front and the next chunk read after it (no copy of the chunk itself); a
    // record longer than the buffer doubles it.
    let buf = Buffer.allocUnsafe(chunkSize),
      have = 0,
      base = 0,
      count = 0,
      legacy = false,
      read = 0,
      generation = 0;
    for (;;) {
      if (have === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, have);
        buf = bigger;
      }
      const n = read < size ? fs.readSync(fd, buf, have, buf.length - have, read) : 0;
      read += n;
      have += n;
      const data = buf.subarray(0, have);
      const last = n === 0; // nothing more to read: a line without its end is parsed as it is
      let at = 0;
      while (at < data.length) {
        if (data[at] === NL) {
          at++;
          continue;
        }
        const nl = data.indexOf(NL, at);
        if (nl < 0 && !last) break;
        const p = misplaced(parseAt(data.subarray(0, nl < 0 ? data.length : nl + 1), at), base + at === 0);
        if (!p.ok) {
          const rest = Buffer.alloc(size - (base + p.end));
          if (rest.length) fs.readSync(fd, rest, 0, rest.length, base + p.end);
          return {
            count,
            goodEnd: base + at,
            damage: { offset: base + at, reason: p.reason, atEnd: !readableAfter(rest, 0) },
            legacy,
            generation,
          };
        }
        if (p.header !== null) generation = p.header;
        else {
          visit(p.batch, (base + p.end) / size);
          count++;
        }
        legacy ||= p.legacy;
        at = p.end;
      }
      if (last) return { count, goodEnd: base + at, damage: null, legacy, generation };
      buf.copyWithin(0, at, have);
      have -= at;
      base += at;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * What a journal's first line says, read without reading the rest: its generation (a header), 0
 * (no header: an empty or missing file, or a first record that is a batch), or null (a first line
 * that is not a good record: the full scan says whether it is a torn end or damage).
 */
export function journalGeneration(file: string): number | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw e;
  }
  try {
    const head = Buffer.alloc(64);
    const n = fs.readSync(fd, head, 0, head.length, 0);
    if (n === 0) return 0;
    const buf = head.subarray(0, n);
    // The previous format has no header.
    if (buf[0] !== 0x4a /* J */) return buf[0] === 0x5b || buf[0] === NL ? 0 : null;
    const nl = buf.indexOf(NL);
    if (nl < 0) {
      // A header is shorter than 64 bytes: a longer first line is a batch, if it is a record at all.
      return n === head.length && /^J1 \d{1,12} [0-9a-f]{8} \[/.test(buf.toString('latin1')) ? 0 : null;
    }
    const p = parseAt(buf.subarray(0, nl + 1), 0);
    return !p.ok ? null : (p.header ?? 0);
  } finally {
    fs.closeSync(fd);
  }
}
