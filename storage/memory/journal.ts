// Durability for `memory:/dir`: an append-only journal of write batches (journal-format.ts), each
// record written whole and fsynced before the write is acknowledged, folded into a snapshot at
// start. One process owns a directory (a lock file with its pid). A record cut short at the end
// (a crash or a full disk mid-append: never acknowledged) is moved aside with a log line; a bad
// record with good ones after it stops the start, naming file and offset: `npm run journal`
// checks and repairs. Compaction runs only after a clean replay.
import fs from 'node:fs';
import path from 'node:path';
import { JournalWriteFailed, StorageConfigProblem, type Row, type WriteOp } from '../types.js';
import { encodeRecord, scanJournal, type Damage } from './journal-format.js';
import { SnapshotReader, snapshotLines, type SnapshotTable, type SnapshotVisitor } from './snapshot-format.js';

export interface JournalLoad {
  /** Streams the snapshot's rows to `visit`, one at a time (never the whole file in memory). */
  readSnapshot(visit: SnapshotVisitor): void;
  readonly batches: WriteOp[][];
  /** A clean replay (nothing dropped): the state may be compacted. */
  readonly clean: boolean;
  /** Compaction would change something: journal records to fold in, or files in an older format. */
  readonly worthCompacting: boolean;
}

/** Write failures that mean "no room" (507); any other failure is the journal being unavailable (503). */
const NO_ROOM = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

export const journalFiles = (dir: string) => ({
  journal: path.join(dir, 'journal.jsonl'), lock: path.join(dir, 'lock'),
  /** JSON lines (snapshot-format.ts), streamed in and out. */
  snapshot: path.join(dir, 'snapshot.jsonl'),
  /** The previous release's snapshot: one JSON object of every row. Read, then replaced. */
  legacySnapshot: path.join(dir, 'snapshot.json'),
});

const CHUNK = 8 * 1024 * 1024;

/**
 * Calls `item` with the parsed JSON value of each line of a file, read in chunks. The complete lines
 * of a chunk are parsed as one JSON array (one parser call per chunk, not per line: ~10% faster).
 */
function eachJsonLine(file: string, item: (value: unknown) => void): void {
  const fd = fs.openSync(file, 'r');
  const parse = (data: Buffer, end: number) => {
    if (end <= 0) return;
    let text = data.toString('utf8', 0, end);
    // The product writes no blank line; a file that has some takes the slower path.
    if (data.subarray(0, end).includes('\n\n') || text.startsWith('\n')) text = text.replace(/\n+/g, '\n').replace(/^\n/, '');
    if (text.endsWith('\n')) text = text.slice(0, -1);
    if (text) for (const v of JSON.parse(`[${text.replaceAll('\n', ',')}]`) as unknown[]) item(v);
  };
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let carry: Buffer | null = null;
    for (;;) {
      const n = fs.readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      let data = buf.subarray(0, n);
      if (carry) { data = Buffer.concat([carry, data]); carry = null; }
      const last = data.lastIndexOf(10);
      parse(data, last + 1);
      if (last + 1 < data.length) carry = Buffer.from(data.subarray(last + 1));
    }
    if (carry && carry.length) parse(carry, carry.length);
  } finally { fs.closeSync(fd); }
}

/** The first bytes of a file ('' when there is none). */
function fileHead(file: string): string {
  let fd: number;
  try { fd = fs.openSync(file, 'r'); } catch { return ''; }
  try {
    const buf = Buffer.alloc(32);
    return buf.toString('utf8', 0, fs.readSync(fd, buf, 0, buf.length, 0));
  } finally { fs.closeSync(fd); }
}

/** A file beside the journal holding bytes taken out of it (never deleted by the product). */
export function asideName(dir: string, what: 'torn' | 'damaged'): string {
  return path.join(dir, `journal.${what}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
}

export function damageMessage(file: string, d: Damage): string {
  return `journal ${file} is damaged at byte ${d.offset} (${d.reason}) and readable records follow it: the store was not started, nothing was changed. ` +
    `Run \`npm run journal -- check ${path.dirname(file)}\` to see it and \`npm run journal -- repair ${path.dirname(file)}\` to keep every record before the damage (the rest is moved to a file beside the journal, not deleted).`;
}

const alive = (pid: number): boolean => {
  try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
};

/** Takes `dir`'s lock for this process: refused while another live process holds it. */
export function takeLock(dir: string, log: (m: string) => void): void {
  const file = journalFiles(dir).lock;
  for (let tries = 0; tries < 3; tries++) {
    try { fs.writeFileSync(file, String(process.pid), { flag: 'wx' }); return; } catch (e) { if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e; }
    const owner = Number(fs.readFileSync(file, 'utf8').trim());
    if (owner === process.pid) return;
    if (Number.isInteger(owner) && owner > 0 && alive(owner))
      throw new StorageConfigProblem(`memory:${dir} is in use by process ${owner} (lock file ${file}); one process at a time may own a memory store`);
    log(`memory:${dir}: taking over the lock of process ${Number.isNaN(owner) ? '(unreadable)' : owner}, which is no longer running`);
    fs.rmSync(file, { force: true });
  }
  throw new StorageConfigProblem(`memory:${dir}: could not take the lock file ${file}`);
}

export function releaseLock(dir: string): void {
  const file = journalFiles(dir).lock;
  try { if (Number(fs.readFileSync(file, 'utf8').trim()) === process.pid) fs.rmSync(file, { force: true }); } catch { /* already gone */ }
}

export class Journal {
  private fd: number | null = null;
  /** Bytes of acknowledged records: a failed append is cut back to it. */
  private size = 0;
  private readonly files: ReturnType<typeof journalFiles>;

  constructor(private readonly dir: string, private readonly log: (m: string) => void) {
    this.files = journalFiles(dir);
  }

  /** Locks the directory and reads snapshot + journal. Throws on damage that is not a torn end. */
  load(): JournalLoad {
    fs.mkdirSync(this.dir, { recursive: true });
    takeLock(this.dir, this.log);
    const buf = fs.existsSync(this.files.journal) ? fs.readFileSync(this.files.journal) : Buffer.alloc(0);
    const scan = scanJournal(buf);
    if (scan.damage && !scan.damage.atEnd) {
      releaseLock(this.dir);
      throw new StorageConfigProblem(damageMessage(this.files.journal, scan.damage));
    }
    if (scan.damage) {
      const aside = asideName(this.dir, 'torn');
      fs.writeFileSync(aside, buf.subarray(scan.goodEnd));
      fs.truncateSync(this.files.journal, scan.goodEnd);
      this.syncDir();
      this.log(`memory:${this.dir}: the journal's last record was cut short (${scan.damage.reason}, ${buf.length - scan.goodEnd} bytes at ${scan.goodEnd}); it was never acknowledged and was moved to ${aside}`);
    }
    this.size = scan.goodEnd;
    const { snapshot, legacySnapshot } = this.files;
    const legacy = !fs.existsSync(snapshot) && fs.existsSync(legacySnapshot);
    const readSnapshot = (visit: SnapshotVisitor) => {
      if (legacy) {
        for (const [resource, rows] of Object.entries(JSON.parse(fs.readFileSync(legacySnapshot, 'utf8')) as Record<string, Row[]>)) for (const row of rows) visit.row(resource, row);
      } else if (fs.existsSync(snapshot)) {
        const reader = new SnapshotReader(visit);
        eachJsonLine(snapshot, (v) => reader.line(v));
      }
    };
    const previousSnapshot = legacy || SnapshotReader.isPrevious(fileHead(snapshot));
    return { readSnapshot, batches: scan.batches, clean: !scan.damage, worthCompacting: scan.batches.length > 0 || scan.legacy || previousSnapshot };
  }

  /** Write the full state as the new snapshot atomically (streamed), then start an empty journal. */
  compact(tables: () => Iterable<SnapshotTable>): void {
    const tmp = this.files.snapshot + '.tmp';
    const fd = fs.openSync(tmp, 'w');
    try {
      let parts: string[] = [], size = 0;
      for (const line of snapshotLines(tables())) {
        parts.push(line);
        size += line.length;
        if (size >= CHUNK) { writeAll(fd, Buffer.from(parts.join(''))); parts = []; size = 0; }
      }
      if (parts.length) writeAll(fd, Buffer.from(parts.join('')));
      fs.fsyncSync(fd);
    } finally { fs.closeSync(fd); }
    fs.renameSync(tmp, this.files.snapshot);
    fs.rmSync(this.files.legacySnapshot, { force: true }); // its rows are in the new snapshot now
    this.syncDir();
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = fs.openSync(this.files.journal, 'w');
    fs.fsyncSync(this.fd);
    this.size = 0;
    this.syncDir();
  }

  /** Appends one record, whole and on disk, or throws JournalWriteFailed with the journal as before. */
  append(batch: readonly WriteOp[]): void {
    const rec = encodeRecord(batch);
    try {
      if (this.fd === null) this.fd = fs.openSync(this.files.journal, 'a');
      writeAll(this.fd, rec);
      fs.fsyncSync(this.fd);
      this.size += rec.length;
    } catch (e) {
      if (this.fd !== null) try { fs.ftruncateSync(this.fd, this.size); } catch { /* the next start drops the torn end */ }
      const code = (e as NodeJS.ErrnoException).code ?? 'SHORT_WRITE';
      throw new JournalWriteFailed(NO_ROOM.has(code) || code === 'SHORT_WRITE' ? 'insufficient_storage' : 'journal_unavailable',
        `the journal of memory:${this.dir} could not be written (${code}); the write was not made`);
    }
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
    releaseLock(this.dir);
  }

  private syncDir(): void {
    const d = fs.openSync(this.dir, 'r');
    try { fs.fsyncSync(d); } finally { fs.closeSync(d); }
  }
}

/** writeSync may write less than asked (a file-size limit, a full disk): go on, and call 0 bytes a failure. */
function writeAll(fd: number, buf: Buffer): void {
  for (let off = 0; off < buf.length;) {
    const n = fs.writeSync(fd, buf, off, buf.length - off);
    if (n <= 0) throw Object.assign(new Error('short write'), { code: 'SHORT_WRITE' });
    off += n;
  }
}
