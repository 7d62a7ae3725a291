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

/** The id's 16 bytes, written in place and spelled with a table (toString(16) per part cost ~1 us an id). */
const bytes = Buffer.alloc(16);
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function timeOrderedId(): string {
  let ms = Date.now();
  if (ms <= lastMs) {
    // Same millisecond (or the clock went back): the next counter value; past its 12 bits, the next millisecond.
    ms = lastMs;
    if (++counter > 0xfff) {
      ms = ++lastMs;
      counter = 0;
    }
  } else {
    lastMs = ms;
    counter = 0;
  }
  if (at + 8 > pool.length) {
    randomFillSync(pool);
    at = 0;
  }
  bytes.writeUIntBE(ms, 0, 6);
  bytes.writeUInt16BE(0x7000 | counter, 6);
  pool.copy(bytes, 8, at, at + 8);
  at += 8;
  bytes[8] = 0x80 | (bytes[8] & 0x3f); // variant 10xx
  const h = (i: number) => HEX[bytes[i]];
  return (
    `${h(0)}${h(1)}${h(2)}${h(3)}-${h(4)}${h(5)}-${h(6)}${h(7)}-` +
    `${h(8)}${h(9)}-${h(10)}${h(11)}${h(12)}${h(13)}${h(14)}${h(15)}`
  );
}
