// Server-assigned ids: UUIDs of version 7 (RFC 9562), the time in milliseconds first, so the ids a
// process makes sort in the order it made them. A B-tree keyed by them (every table's primary key,
// the change records' object ids) then grows at its right edge: random version-4 ids put each new
// row on a page of its own anywhere in the tree, which on InnoDB (rows clustered by primary key) read
// and wrote back about 3 pages per prefix once the tables outgrew the buffer pool (bench:bulk).
// Within one millisecond a counter (the 12 bits after the version) keeps them increasing; the last
// 62 bits are random, so ids stay unguessable and distinct across processes.
import { randomFillSync } from 'node:crypto';

/** Random bytes taken in blocks (one system call per 512 ids). */
const pool = Buffer.alloc(4096);
let at = pool.length;

let lastMs = 0;
let counter = 0;

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

export function timeOrderedId(): string {
  let ms = Date.now();
  if (ms <= lastMs) {
    // Same millisecond (or the clock went back): the next counter value; past its 12 bits, the next millisecond.
    ms = lastMs;
    if (++counter > 0xfff) { ms = ++lastMs; counter = 0; }
  } else {
    lastMs = ms;
    counter = 0;
  }
  if (at + 8 > pool.length) { randomFillSync(pool); at = 0; }
  const hi = pool.readUInt32BE(at), lo = pool.readUInt32BE(at + 4);
  at += 8;
  const variant = 0x8000 | (hi >>> 18); // 10xx and 14 random bits
  return `${hex(Math.floor(ms / 0x10000), 8)}-${hex(ms & 0xffff, 4)}-${hex(0x7000 | counter, 4)}-${hex(variant, 4)}-${hex(hi & 0xffff, 4)}${hex(lo, 8)}`;
}
