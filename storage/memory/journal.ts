// Durability for `memory:/dir`: an append-only journal of write batches (journal-format.ts), each
// record written whole and fsynced before the write is acknowledged, folded into a snapshot at
// start. One process owns a directory (a lock file with its pid). A record cut short at the end
// (a crash or a full disk mid-append: never acknowledged) is moved aside with a log line; a bad
// record with good ones after it stops the start, naming file and offset: `npm run journal`
// checks and repairs. Compaction runs only after a clean replay.
//
// Compaction is safe to cut short at any point (a crash, kill -9, power loss): each file is
// replaced whole (a temporary file, fsynced, renamed, the directory fsynced) and the two files say
// which journal belongs to which snapshot. The snapshot names the generation of the journal that
// follows it; the journal names its own in its first record (journal-format.ts). A start replays
// the journal of the snapshot's generation; an older one (its records are in the snapshot: the
// compaction stopped after renaming the snapshot, before replacing the journal) is not replayed,
// only replaced by an empty one of the snapshot's generation. A snapshot or journal without a
// generation (earlier releases) is read as before; a journal newer than its snapshot (the snapshot
// lost or restored from an older backup) stops the start: the rows between are in neither file.
import fs from 'node:fs';
import path from 'node:path';
import { JournalWriteFailed, StorageConfigProblem, type Row, type WriteOp } from '../types.js';
import { encodeHeader, encodeRecord, journalGeneration, scanJournalRecords, type Damage } from './journal-format.js';
import type { PackedBatch } from './journal-rows.js';
import { SnapshotReader, type SnapshotVisitor } from './snapshot-format.js';
import type { TableImage } from '../../engine/memory/columns/column-image.js';
import { columnSnapshotParts, readColumnSnapshot, SnapshotDamage, type SnapshotImage } from './column-snapshot.js';

/** What a snapshot is read into: whole tables (the current format) or rows (earlier ones). */
export interface SnapshotLoader extends SnapshotVisitor {
  image(resource: string, image: TableImage): void;
}

export interface JournalLoad {
  /** Gives the snapshot to `visit`, a table or a row at a time (never the whole file in memory). */
  readSnapshot(visit: SnapshotLoader): void;
  /**
   * Then gives the journal's batches to `apply` in order, each as soon as it is read (runs of creates by columns: journal-rows.ts) with the share of the file read so far. A torn last
   * record is dropped with a log line (moved aside); a damaged record with good ones after it
   * throws (the lock let go, nothing on disk changed; the batches given so far are to be dropped).
   */
  replay(apply: (batch: PackedBatch, read: number) => void): Replay;
}

export interface Replay {
  /** A clean replay (nothing dropped): the state may be compacted. */
  readonly clean: boolean;
  /** Compaction would change something: journal records to fold in, or files in an older format. */
  readonly worthCompacting: boolean;
}

/** Write failures that mean "no room" (507); any other failure is the journal being unavailable (503). */
const NO_ROOM = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

const noRoom = (e: unknown): string | null => {
  const code = (e as NodeJS.ErrnoException).code ?? '';
  return NO_ROOM.has(code) || code === 'SHORT_WRITE' ? code : null;
};

/**
 * A compaction found no room for the new snapshot (a full disk): nothing was changed, the snapshot
 * and journal there are still the store, its temporary file is removed.
 */
export class NoRoomForSnapshot extends Error {
  constructor(
    readonly code: string,
    readonly file: string,
  ) {
    super(`no room to write ${file} (${code})`);
  }
}

export const journalFiles = (dir: string) => ({
  journal: path.join(dir, 'journal.jsonl'),
  lock: path.join(dir, 'lock'),
  /** The empty journal compaction writes, before it is renamed over the journal. */
  journalTmp: path.join(dir, 'journal.jsonl.tmp'),
  /** The tables' columns (column-snapshot.ts): what compaction writes. */
  snapshot: path.join(dir, 'snapshot.bin'),
  /** The snapshot being written, before it is renamed into place. */
  snapshotTmp: path.join(dir, 'snapshot.bin.tmp'),
  /** Earlier releases' snapshot: JSON lines (snapshot-format.ts). Read, then replaced. */
  lineSnapshot: path.join(dir, 'snapshot.jsonl'),
  /** The first releases' snapshot: one JSON object of every row. Read, then replaced. */
  legacySnapshot: path.join(dir, 'snapshot.json'),
});

/** What a start says when the snapshot cannot be read. */
export function snapshotDamageMessage(d: SnapshotDamage): string {
  return (
    `snapshot ${d.file} is damaged at byte ${d.offset} (${d.reason}): the store was not started, nothing was changed. ` +
    `The snapshot holds every row compacted into it and the journal only what came after, so the store cannot start without it: ` +
    `restore ${path.dirname(d.file)} from a backup (or move the directory aside to start empty).`
  );
}

/** What a start says when the journal follows a snapshot that is not the one it was written after. */
export function journalAheadMessage(dir: string, journal: number, snapshot: number | null, form: string): string {
  const f = journalFiles(dir);
  const which =
    form === 'none'
      ? `there is no snapshot (${f.snapshot})`
      : snapshot === null
        ? `the snapshot (${form === 'columns' ? f.snapshot : form === 'lines' ? f.lineSnapshot : f.legacySnapshot}) is older than that`
        : `the snapshot ${f.snapshot} is of generation ${snapshot}`;
  return (
    `journal ${f.journal} is of generation ${journal}: it holds only the writes made after a snapshot of generation ${journal}, but ${which}. ` +
    `The rows between are in neither file, so the store was not started, nothing was changed: restore ${dir} from a backup taken whole (snapshot and journal together).`
  );
}

/** The steps of a compaction, in order: a crash after any of them leaves a store that starts with the same rows. */
export const COMPACTION_STEPS = [
  'snapshot-partial',
  'snapshot-written',
  'snapshot-renamed',
  'journal-written',
  'journal-renamed',
] as const;
export type CompactionStep = (typeof COMPACTION_STEPS)[number];

/** The environment variable that makes a process stop for good at a compaction step (tests only). */
export const COMPACTION_PAUSE_ENV = 'MEMORY_COMPACTION_TEST_PAUSE';

/**
 * A test seam, inert in production: called after each step of a compaction. Unset (as in
 * production) it is null and each step costs one test of null. Tests set it in-process
 * (setCompactionHook) to stop a compaction there, or start a process with
 * MEMORY_COMPACTION_TEST_PAUSE=<step>: that process then prints `compaction paused at <step>` to
 * stderr and sleeps at that step until it is killed (so a test can kill -9 it there).
 */
let compactionHook: ((step: CompactionStep) => void) | null = pauseAt(process.env[COMPACTION_PAUSE_ENV]);

/** Sets the compaction hook (tests only); returns the one it replaces. */
export function setCompactionHook(
  hook: ((step: CompactionStep) => void) | null,
): ((step: CompactionStep) => void) | null {
  const was = compactionHook;
  compactionHook = hook;
  return was;
}

function pauseAt(step: string | undefined): ((step: CompactionStep) => void) | null {
  if (!step) return null;
  if (!(COMPACTION_STEPS as readonly string[]).includes(step))
    throw new Error(`${COMPACTION_PAUSE_ENV}=${step}: not one of ${COMPACTION_STEPS.join(', ')}`);
  return (at) => {
    if (at !== step) return;
    fs.writeSync(2, `compaction paused at ${at} (pid ${process.pid})\n`);
    const cell = new Int32Array(new SharedArrayBuffer(4));
    for (;;) Atomics.wait(cell, 0, 0);
  };
}

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
    if (data.subarray(0, end).includes('\n\n') || text.startsWith('\n'))
      text = text.replace(/\n+/g, '\n').replace(/^\n/, '');
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
      if (carry) {
        data = Buffer.concat([carry, data]);
        carry = null;
      }
      const last = data.lastIndexOf(10);
      parse(data, last + 1);
      if (last + 1 < data.length) carry = Buffer.from(data.subarray(last + 1));
    }
    if (carry && carry.length) parse(carry, carry.length);
  } finally {
    fs.closeSync(fd);
  }
}

/** A file beside the journal holding bytes taken out of it (never deleted by the product). */
export function asideName(dir: string, what: 'torn' | 'damaged'): string {
  return path.join(dir, `journal.${what}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
}

/** Does `dir` hold a memory store: a journal or a snapshot (of any release's form)? */
export function holdsStore(dir: string): boolean {
  const f = journalFiles(dir);
  return [f.journal, f.snapshot, f.lineSnapshot, f.legacySnapshot].some((file) => fs.existsSync(file));
}

export function damageMessage(file: string, d: Damage): string {
  return (
    `journal ${file} is damaged at byte ${d.offset} (${d.reason}) and readable records follow it: the store was not started, nothing was changed. ` +
    `Run \`npm run journal -- check ${path.dirname(file)}\` to see it and \`npm run journal -- repair ${path.dirname(file)}\` to keep every record before the damage (the rest is moved to a file beside the journal, not deleted).`
  );
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Takes `dir`'s lock for this process: refused while another live process holds it. */
export function takeLock(dir: string, log: (m: string) => void): void {
  const file = journalFiles(dir).lock;
  for (let tries = 0; tries < 3; tries++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const owner = Number(fs.readFileSync(file, 'utf8').trim());
    if (owner === process.pid) return;
    if (Number.isInteger(owner) && owner > 0 && alive(owner))
      throw new StorageConfigProblem(
        `memory:${dir} is in use by process ${owner} (lock file ${file}); one process at a time may own a memory store`,
      );
    log(
      `memory:${dir}: taking over the lock of process ${Number.isNaN(owner) ? '(unreadable)' : owner}, which is no longer running`,
    );
    fs.rmSync(file, { force: true });
  }
  throw new StorageConfigProblem(`memory:${dir}: could not take the lock file ${file}`);
}

export function releaseLock(dir: string): void {
  const file = journalFiles(dir).lock;
  try {
    if (Number(fs.readFileSync(file, 'utf8').trim()) === process.pid) fs.rmSync(file, { force: true });
  } catch {
    /* already gone */
  }
}

export class Journal {
  private fd: number | null = null;
  /** Bytes of acknowledged records: a failed append is cut back to it. */
  private size = 0;
  /** The journal's generation (0: a journal without one, after a snapshot without one or none). */
  private generation = 0;
  /** Set when appending could lose the record (a compaction failed between its two renames): why. */
  private unwritable: string | null = null;
  private readonly files: ReturnType<typeof journalFiles>;

  constructor(
    private readonly dir: string,
    private readonly log: (m: string) => void,
  ) {
    this.files = journalFiles(dir);
  }

  /** Locks the directory; the snapshot and the journal are then read through what it returns. */
  load(): JournalLoad {
    fs.mkdirSync(this.dir, { recursive: true });
    takeLock(this.dir, this.log);
    // The newest form present is read: compaction writes snapshot.bin before it removes the others.
    const { snapshot, lineSnapshot, legacySnapshot } = this.files;
    const form = fs.existsSync(snapshot)
      ? 'columns'
      : fs.existsSync(lineSnapshot)
        ? 'lines'
        : fs.existsSync(legacySnapshot)
          ? 'object'
          : 'none';
    /** The snapshot's generation (the journal that follows it), once read; null: none, or without one. */
    let after: number | null | undefined;
    const refuse = (message: string): never => {
      releaseLock(this.dir);
      throw new StorageConfigProblem(message);
    };
    const replay = (apply: (batch: PackedBatch, read: number) => void): Replay => {
      if (after === undefined) throw new Error('journal: replay before the snapshot was read');
      const file = this.files.journal;
      const first = journalGeneration(file);
      // null: a first line that is not a good record: the scan below tells a torn end from damage.
      const generation = first ?? after ?? 0;
      if (generation > (after ?? 0)) refuse(journalAheadMessage(this.dir, generation, after, form));
      let count = 0,
        legacy = false,
        clean = true;
      if (after !== null && generation < after) {
        // Every record of this journal is in the snapshot (a compaction cut short before it replaced
        // the journal): not replayed, only replaced below.
        const bytes = fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
        if (bytes > 0)
          this.log(
            `memory:${this.dir}: the journal (generation ${generation}, ${bytes} bytes) is already in the snapshot, which follows it ` +
              `(a compaction was cut short before it replaced the journal): not replayed, replaced by an empty journal of generation ${after}`,
          );
        this.size = 0;
      } else {
        const scan = scanJournalRecords(file, apply);
        if (scan.damage && !scan.damage.atEnd) refuse(damageMessage(file, scan.damage));
        if (scan.damage) {
          const aside = asideName(this.dir, 'torn');
          const torn = readFrom(file, scan.goodEnd);
          fs.writeFileSync(aside, torn);
          fs.truncateSync(file, scan.goodEnd);
          this.syncDir();
          this.log(
            `memory:${this.dir}: the journal's last record was cut short (${scan.damage.reason}, ${torn.length} bytes at ${scan.goodEnd}); it was never acknowledged and was moved to ${aside}`,
          );
        }
        this.size = scan.goodEnd;
        count = scan.count;
        legacy = scan.legacy;
        clean = !scan.damage;
        // A journal of the snapshot's generation whose header was cut short or never written (it is
        // empty now) is replaced below; a journal with records always has its header.
        if (scan.generation !== (after ?? 0) && scan.count > 0)
          refuse(journalAheadMessage(this.dir, scan.generation, after, form));
      }
      this.generation = after ?? 0;
      // A compaction cut short may have left: temporary files; older snapshot forms (snapshot.bin,
      // renamed into place whole, holds their rows); a journal of an earlier generation, or one
      // without its header. Each is put right before the first write.
      for (const f of [this.files.snapshotTmp, this.files.journalTmp]) fs.rmSync(f, { force: true });
      if (form === 'columns') for (const f of [lineSnapshot, legacySnapshot]) fs.rmSync(f, { force: true });
      if (after !== null && (generation < after || (this.size === 0 && journalGeneration(file) !== after)))
        this.startJournal(after);
      return { clean, worthCompacting: count > 0 || legacy || form === 'lines' || form === 'object' };
    };
    const readSnapshot = (visit: SnapshotLoader) => {
      if (form === 'columns') {
        try {
          after = readColumnSnapshot(snapshot, (resource, image) => visit.image(resource, image)).journal;
        } catch (e) {
          if (!(e instanceof SnapshotDamage)) throw e;
          refuse(snapshotDamageMessage(e));
        }
      } else if (form === 'lines') {
        const reader = new SnapshotReader(visit);
        eachJsonLine(lineSnapshot, (v) => reader.line(v));
        after = null;
      } else if (form === 'object') {
        for (const [resource, rows] of Object.entries(
          JSON.parse(fs.readFileSync(legacySnapshot, 'utf8')) as Record<string, Row[]>,
        ))
          for (const row of rows) visit.row(resource, row);
        after = null;
      } else after = null;
    };
    return { readSnapshot, replay };
  }

  /**
   * compact() at a start. A full disk never stops a start: with no room for the snapshot the files
   * in place are the store, served as they are (writes answer "no room" until there is some), and
   * a later start compacts; it is logged.
   */
  async compactAtStart(tables: () => Iterable<SnapshotImage>, count: number): Promise<void> {
    try {
      await this.compact(tables, count);
    } catch (e) {
      if (!(e instanceof NoRoomForSnapshot)) throw e;
      this.log(
        `memory:${this.dir}: no room to write the snapshot at start (${e.code}): serving from the journal as it is; a start with room compacts it`,
      );
    }
  }

  /**
   * Writes the full state as the new snapshot atomically (a temporary file, fsynced, renamed; one
   * table's image in memory at a time), marked as followed by the next generation of journal, then
   * replaces the journal by an empty one of that generation (the same way). Cut short after any
   * step, the next start gives the same rows: before the snapshot's rename the old snapshot and
   * journal are read; after it the new snapshot, the old journal being of an earlier generation.
   * The snapshot is written with asynchronous writes, a table's image taken as it comes: other
   * work runs in between, but nothing may be appended until it resolves (what it writes is the
   * state as it was when it began, and the journal it replaces must hold nothing newer).
   */
  async compact(tables: () => Iterable<SnapshotImage>, count: number): Promise<void> {
    const next = this.generation + 1;
    const tmp = this.files.snapshotTmp;
    try {
      const fh = await fs.promises.open(tmp, 'w');
      try {
        // Small blocks (headers, short lists) are gathered into writes of about CHUNK bytes.
        let parts: Buffer[] = [],
          size = 0,
          written = false;
        const put = async (b: Buffer) => {
          await writeAllAsync(fh, b);
          if (!written) {
            written = true;
            compactionHook?.('snapshot-partial');
          }
        };
        const flush = async () => {
          if (parts.length) await put(parts.length === 1 ? parts[0] : Buffer.concat(parts));
          parts = [];
          size = 0;
        };
        for (const b of columnSnapshotParts(tables(), count, next)) {
          if (b.length >= CHUNK) {
            await flush();
            await put(b);
            continue;
          }
          parts.push(Buffer.from(b)); // a view of a column's array is copied: the column may change before the flush
          size += b.length;
          if (size >= CHUNK) await flush();
        }
        await flush();
        await fh.sync();
      } finally {
        await fh.close();
      }
    } catch (e) {
      // Not renamed: the snapshot and journal in place are still the store. Out of room, the
      // partial file would only keep the disk full (any other failure leaves it to the next start).
      const code = noRoom(e);
      if (!code) throw e;
      fs.rmSync(tmp, { force: true });
      throw new NoRoomForSnapshot(code, tmp);
    }
    compactionHook?.('snapshot-written');
    fs.renameSync(tmp, this.files.snapshot);
    try {
      compactionHook?.('snapshot-renamed');
      // Their rows are in the new snapshot now.
      fs.rmSync(this.files.lineSnapshot, { force: true });
      fs.rmSync(this.files.legacySnapshot, { force: true });
      // The snapshot's rename is on disk before the journal is replaced: never a new journal after an old snapshot.
      this.syncDir();
      this.startJournal(next);
    } catch (e) {
      // The old journal's records are in the renamed snapshot, which a start reads without them:
      // an append to it now would be lost at the next start.
      this.unwritable = `the journal could not be replaced after the snapshot was written (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
      throw e;
    }
  }

  /** Replaces the journal by an empty one of this generation: a temporary file with its header, fsynced, renamed. */
  private startJournal(generation: number): void {
    const header = encodeHeader(generation);
    try {
      const fd = fs.openSync(this.files.journalTmp, 'w');
      try {
        writeAll(fd, header);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    } catch (e) {
      if (!noRoom(e)) throw e;
      fs.rmSync(this.files.journalTmp, { force: true });
      // No room for a second file. Every record of the journal is in the snapshot by now (this is
      // only called once they are), so it is emptied in place, which frees its room, and given its
      // header; a crash in between leaves an empty journal, which a start replaces.
      if (this.fd !== null) fs.closeSync(this.fd);
      this.fd = null;
      const fd = fs.openSync(this.files.journal, 'w');
      try {
        writeAll(fd, header);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      this.log(
        `memory:${this.dir}: no room for a new journal beside the old one (${noRoom(e)}); the old one, whose records are all in the snapshot, was emptied in place`,
      );
    }
    compactionHook?.('journal-written');
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
    if (fs.existsSync(this.files.journalTmp)) fs.renameSync(this.files.journalTmp, this.files.journal);
    compactionHook?.('journal-renamed');
    this.syncDir();
    this.fd = fs.openSync(this.files.journal, 'a');
    this.size = header.length;
    this.generation = generation;
  }

  /** Appends one record, whole and on disk, or throws JournalWriteFailed with the journal as before. */
  append(batch: readonly WriteOp[]): void {
    if (this.unwritable)
      throw new JournalWriteFailed(
        'journal_unavailable',
        `the journal of memory:${this.dir} cannot be written until a restart: ${this.unwritable}; the write was not made`,
      );
    const rec = encodeRecord(batch);
    try {
      if (this.fd === null) this.fd = fs.openSync(this.files.journal, 'a');
      writeAll(this.fd, rec);
      fs.fsyncSync(this.fd);
      this.size += rec.length;
    } catch (e) {
      if (this.fd !== null)
        try {
          fs.ftruncateSync(this.fd, this.size);
        } catch {
          /* the next start drops the torn end */
        }
      const code = (e as NodeJS.ErrnoException).code ?? 'SHORT_WRITE';
      throw new JournalWriteFailed(
        NO_ROOM.has(code) || code === 'SHORT_WRITE' ? 'insufficient_storage' : 'journal_unavailable',
        `the journal of memory:${this.dir} could not be written (${code}); the write was not made`,
      );
    }
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
    releaseLock(this.dir);
  }

  private syncDir(): void {
    const d = fs.openSync(this.dir, 'r');
    try {
      fs.fsyncSync(d);
    } finally {
      fs.closeSync(d);
    }
  }
}

/** writeAll with an asynchronous write (other work runs while the disk takes it). */
async function writeAllAsync(fh: fs.promises.FileHandle, buf: Buffer): Promise<void> {
  for (let off = 0; off < buf.length;) {
    const { bytesWritten } = await fh.write(buf, off, buf.length - off);
    if (bytesWritten <= 0) throw Object.assign(new Error('short write'), { code: 'SHORT_WRITE' });
    off += bytesWritten;
  }
}

/** The bytes of a file from `offset` to its end. */
function readFrom(file: string, offset: number): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const out = Buffer.alloc(Math.max(0, fs.fstatSync(fd).size - offset));
    for (let at = 0; at < out.length;) {
      const n = fs.readSync(fd, out, at, out.length - at, offset + at);
      if (n <= 0) return out.subarray(0, at);
      at += n;
    }
    return out;
  } finally {
    fs.closeSync(fd);
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
