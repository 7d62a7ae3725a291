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
// The store's id style is a file of its own, written once when the store is created
// (store-id-style.ts); an integer store's counters of new ids ride in the snapshot.
import fs from 'node:fs';
import { JournalWriteFailed, StorageConfigProblem, type WriteOp } from '../types.js';
import { SnapshotDamage, columnSnapshotParts, type IdCounters, type SnapshotImage } from './column-snapshot.js';
import type { IdStyle, IdStyleName } from '../../engine/schema/id-style.js';
import { storeIdStyle } from './store-id-style.js';
import { compactionStep } from './compaction-steps.js';
import { encodeHeader, encodeRecord, journalGeneration, scanJournalRecords } from './journal-format.js';
import { asideName, journalFiles, releaseLock, takeLock } from './journal-files.js';
import { CHUNK, noRoom, readFrom, syncDir, writeAll, writeAllAsync, writeSynced } from './journal-io.js';
import { damageMessage, journalAheadMessage, snapshotDamageMessage } from './journal-messages.js';
import type { PackedBatch } from './journal-rows.js';
import { readSnapshotForm, snapshotForm, type SnapshotForm, type SnapshotLoader } from './snapshot-read.js';

// The compaction's test seam, where the tests have always found it.
export { COMPACTION_PAUSE_ENV, COMPACTION_STEPS, setCompactionHook, type CompactionStep } from './compaction-steps.js';

export interface JournalLoad {
  /** The store's id style: its own, or for a store created by this load the one asked for (store-id-style.ts). */
  readonly ids: IdStyle;
  /** Gives the snapshot to `visit`, a table or a row at a time (never the whole file in memory). */
  readSnapshot(visit: SnapshotLoader): void;
  /**
   * Then gives the journal's batches to `apply` in order, each as soon as it is read (runs of
   * creates by columns: journal-rows.ts) with the share of the file read so far. A torn last
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

  /**
   * Locks the directory; the snapshot and the journal are then read through what it returns.
   * `idStyle`: ID_STYLE, the style of a store this creates; an existing store's differs -> refused.
   */
  load(idStyle?: IdStyleName): JournalLoad {
    fs.mkdirSync(this.dir, { recursive: true });
    takeLock(this.dir, this.log);
    let ids: IdStyle;
    try {
      ids = storeIdStyle(this.dir, idStyle);
    } catch (e) {
      releaseLock(this.dir);
      throw e;
    }
    const form = snapshotForm(this.files);
    /** The snapshot's generation (the journal that follows it), once read; null: none, or without one. */
    let after: number | null | undefined;
    const readSnapshot = (visit: SnapshotLoader) => {
      try {
        after = readSnapshotForm(this.files, form, visit);
      } catch (e) {
        if (!(e instanceof SnapshotDamage)) throw e;
        this.refuse(snapshotDamageMessage(e));
      }
    };
    const replay = (apply: (batch: PackedBatch, read: number) => void): Replay => {
      if (after === undefined) throw new Error('journal: replay before the snapshot was read');
      return this.replay(form, after, apply);
    };
    return { ids, readSnapshot, replay };
  }

  /** The start stops with `message`: the lock is let go, nothing on disk was changed. */
  private refuse(message: string): never {
    releaseLock(this.dir);
    throw new StorageConfigProblem(message);
  }

  /** The journal replayed after a snapshot of `form` followed by generation `after`. */
  private replay(form: SnapshotForm, after: number | null, apply: (batch: PackedBatch, read: number) => void): Replay {
    const file = this.files.journal;
    const first = journalGeneration(file);
    // null: a first line that is not a good record: the scan below tells a torn end from damage.
    const generation = first ?? after ?? 0;
    if (generation > (after ?? 0)) this.refuse(journalAheadMessage(this.dir, generation, after, form));
    let read = { count: 0, legacy: false, clean: true };
    if (after !== null && generation < after) {
      // Every record of this journal is in the snapshot (a compaction cut short before it replaced
      // the journal): not replayed, only replaced below.
      const bytes = fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
      if (bytes > 0)
        this.log(
          `memory:${this.dir}: the journal (generation ${generation}, ${bytes} bytes) is already in the ` +
            'snapshot, which follows it (a compaction was cut short before it replaced the journal): ' +
            `not replayed, replaced by an empty journal of generation ${after}`,
        );
      this.size = 0;
    } else read = this.replayRecords(form, after, apply);
    this.generation = after ?? 0;
    // A compaction cut short may have left: temporary files; older snapshot forms (snapshot.bin,
    // renamed into place whole, holds their rows); a journal of an earlier generation, or one
    // without its header. Each is put right before the first write.
    for (const f of [this.files.snapshotTmp, this.files.journalTmp]) fs.rmSync(f, { force: true });
    if (form === 'columns')
      for (const f of [this.files.lineSnapshot, this.files.legacySnapshot]) fs.rmSync(f, { force: true });
    if (after !== null && (generation < after || (this.size === 0 && journalGeneration(file) !== after)))
      this.startJournal(after);
    const older = form === 'lines' || form === 'object';
    return { clean: read.clean, worthCompacting: read.count > 0 || read.legacy || older };
  }

  /** The journal's records given to `apply`; a torn end moved aside, damage before good records refused. */
  private replayRecords(
    form: SnapshotForm,
    after: number | null,
    apply: (batch: PackedBatch, read: number) => void,
  ): { count: number; legacy: boolean; clean: boolean } {
    const file = this.files.journal;
    const scan = scanJournalRecords(file, apply);
    if (scan.damage && !scan.damage.atEnd) this.refuse(damageMessage(file, scan.damage));
    if (scan.damage) {
      const aside = asideName(this.dir, 'torn');
      const torn = readFrom(file, scan.goodEnd);
      fs.writeFileSync(aside, torn);
      fs.truncateSync(file, scan.goodEnd);
      syncDir(this.dir);
      this.log(
        `memory:${this.dir}: the journal's last record was cut short (${scan.damage.reason}, ` +
          `${torn.length} bytes at ${scan.goodEnd}); it was never acknowledged and was moved to ${aside}`,
      );
    }
    this.size = scan.goodEnd;
    // A journal of the snapshot's generation whose header was cut short or never written (it is
    // empty now) is replaced below; a journal with records always has its header.
    if (scan.generation !== (after ?? 0) && scan.count > 0)
      this.refuse(journalAheadMessage(this.dir, scan.generation, after, form));
    return { count: scan.count, legacy: scan.legacy, clean: !scan.damage };
  }

  /**
   * compact() at a start. A full disk never stops a start: with no room for the snapshot the files
   * in place are the store, served as they are (writes answer "no room" until there is some), and
   * a later start compacts; it is logged.
   */
  async compactAtStart(tables: () => Iterable<SnapshotImage>, count: number, ids?: IdCounters): Promise<void> {
    try {
      await this.compact(tables, count, ids);
    } catch (e) {
      if (!(e instanceof NoRoomForSnapshot)) throw e;
      this.log(
        `memory:${this.dir}: no room to write the snapshot at start (${e.code}): serving from the journal ` +
          'as it is; a start with room compacts it',
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
  async compact(tables: () => Iterable<SnapshotImage>, count: number, ids?: IdCounters): Promise<void> {
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
            compactionStep('snapshot-partial');
          }
        };
        const flush = async () => {
          if (parts.length) await put(parts.length === 1 ? parts[0] : Buffer.concat(parts));
          parts = [];
          size = 0;
        };
        for (const b of columnSnapshotParts(tables(), count, next, ids)) {
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
    compactionStep('snapshot-written');
    fs.renameSync(tmp, this.files.snapshot);
    try {
      compactionStep('snapshot-renamed');
      // Their rows are in the new snapshot now.
      fs.rmSync(this.files.lineSnapshot, { force: true });
      fs.rmSync(this.files.legacySnapshot, { force: true });
      // The snapshot's rename is on disk before the journal is replaced: never a new journal after an old snapshot.
      syncDir(this.dir);
      this.startJournal(next);
    } catch (e) {
      // The old journal's records are in the renamed snapshot, which a start reads without them:
      // an append to it now would be lost at the next start.
      const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      this.unwritable = `the journal could not be replaced after the snapshot was written (${why})`;
      throw e;
    }
  }

  /** Replaces the journal by an empty one of this generation: a temporary file with its header, fsynced, renamed. */
  private startJournal(generation: number): void {
    const header = encodeHeader(generation);
    try {
      writeSynced(this.files.journalTmp, header);
    } catch (e) {
      if (!noRoom(e)) throw e;
      fs.rmSync(this.files.journalTmp, { force: true });
      // No room for a second file. Every record of the journal is in the snapshot by now (this is
      // only called once they are), so it is emptied in place, which frees its room, and given its
      // header; a crash in between leaves an empty journal, which a start replaces.
      if (this.fd !== null) fs.closeSync(this.fd);
      this.fd = null;
      writeSynced(this.files.journal, header);
      this.log(
        `memory:${this.dir}: no room for a new journal beside the old one (${noRoom(e)}); the old one, ` +
          'whose records are all in the snapshot, was emptied in place',
      );
    }
    compactionStep('journal-written');
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
    if (fs.existsSync(this.files.journalTmp)) fs.renameSync(this.files.journalTmp, this.files.journal);
    compactionStep('journal-renamed');
    syncDir(this.dir);
    this.fd = fs.openSync(this.files.journal, 'a');
    this.size = header.length;
    this.generation = generation;
  }

  /** Appends one record, whole and on disk, or throws JournalWriteFailed with the journal as before. */
  append(batch: readonly WriteOp[]): void {
    if (this.unwritable)
      throw new JournalWriteFailed(
        'journal_unavailable',
        `the journal of memory:${this.dir} cannot be written until a restart: ${this.unwritable}; ` +
          'the write was not made',
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
        noRoom({ code }) ? 'insufficient_storage' : 'journal_unavailable',
        `the journal of memory:${this.dir} could not be written (${code}); the write was not made`,
      );
    }
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
    releaseLock(this.dir);
  }
}
