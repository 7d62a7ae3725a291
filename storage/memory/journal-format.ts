// The `memory:/dir` journal's record format, and the scan that tells good records from damage.
// A record is one line: `J1 <length> <crc32> <json>\n`, the length in bytes and the CRC-32 (hex)
// of the JSON batch, so a torn or altered record is told from a good one without trusting JSON.
// Lines starting with `[` are the previous release's records (a bare JSON batch per line): read
// once, then rewritten in this format by the next compaction.
import { crc32 } from 'node:zlib';
import type { WriteOp } from '../types.js';

const MAGIC = 'J1';
const NL = 0x0a;

export function encodeRecord(batch: readonly WriteOp[]): Buffer {
  const json = Buffer.from(JSON.stringify(batch), 'utf8');
  const head = Buffer.from(`${MAGIC} ${json.length} ${crc32(json).toString(16).padStart(8, '0')} `, 'latin1');
  return Buffer.concat([head, json, Buffer.from('\n')]);
}

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
}

type Parsed = { ok: true; batch: WriteOp[]; end: number; legacy: boolean } | { ok: false; reason: string; end: number };

function parseAt(buf: Buffer, at: number): Parsed {
  const nl = buf.indexOf(NL, at);
  const lineEnd = nl < 0 ? buf.length : nl;
  const next = nl < 0 ? buf.length : nl + 1;
  if (buf[at] === 0x5b /* [ */) {
    if (nl < 0) return { ok: false, reason: 'record without its line end', end: next };
    try { return { ok: true, batch: JSON.parse(buf.toString('utf8', at, lineEnd)) as WriteOp[], end: next, legacy: true }; } catch { return { ok: false, reason: 'record that does not parse', end: next }; }
  }
  const head = /^J1 (\d{1,12}) ([0-9a-f]{8}) /.exec(buf.toString('latin1', at, Math.min(buf.length, at + 32)));
  if (!head) return { ok: false, reason: 'record without a valid header', end: next };
  const start = at + head[0].length, len = Number(head[1]);
  // JSON text holds no raw line end, so a good record's line is exactly its header, length and \n.
  if (start + len !== lineEnd || nl < 0) return { ok: false, reason: `record whose length is not its stated ${len} bytes`, end: next };
  const json = buf.subarray(start, start + len);
  if (crc32(json).toString(16).padStart(8, '0') !== head[2]) return { ok: false, reason: 'record whose checksum does not match', end: next };
  try { return { ok: true, batch: JSON.parse(json.toString('utf8')) as WriteOp[], end: next, legacy: false }; } catch { return { ok: false, reason: 'record that does not parse', end: next }; }
}

/** Reads records until the first bad one; says whether anything readable follows it. */
export function scanJournal(buf: Buffer): Scan {
  const batches: WriteOp[][] = [];
  let at = 0, legacy = false;
  while (at < buf.length) {
    if (buf[at] === NL) { at++; continue; } // an empty line (the previous format wrote none, but allowed them)
    const p = parseAt(buf, at);
    if (!p.ok) return { batches, goodEnd: at, damage: { offset: at, reason: p.reason, atEnd: !readableAfter(buf, p.end) }, legacy };
    batches.push(p.batch);
    legacy ||= p.legacy;
    at = p.end;
  }
  return { batches, goodEnd: at, damage: null, legacy };
}

/** Does a good record start at any line after `from`? */
function readableAfter(buf: Buffer, from: number): boolean {
  for (let at = from; at < buf.length;) {
    if (buf[at] === NL) { at++; continue; }
    const p = parseAt(buf, at);
    if (p.ok) return true;
    const nl = buf.indexOf(NL, at);
    if (nl < 0) return false;
    at = nl + 1;
  }
  return false;
}
