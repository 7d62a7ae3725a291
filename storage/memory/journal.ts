// Durability for `memory:/dir`: an append-only journal of write batches, fsynced before a write
// is acknowledged, folded into a snapshot at every start. A torn last line (crash mid-append)
// is dropped: that batch was never acknowledged.
import fs from 'node:fs';
import path from 'node:path';
import type { Row, WriteOp } from '../types.js';

export type Snapshot = Record<string, Row[]>;

export class Journal {
  private fd: number | null = null;
  private readonly journalPath: string;
  private readonly snapshotPath: string;

  constructor(private readonly dir: string) {
    this.journalPath = path.join(dir, 'journal.jsonl');
    this.snapshotPath = path.join(dir, 'snapshot.json');
  }

  /** Read snapshot + journal; returns the snapshot and the batches to replay on top of it. */
  load(): { snapshot: Snapshot; batches: WriteOp[][] } {
    fs.mkdirSync(this.dir, { recursive: true });
    const snapshot: Snapshot = fs.existsSync(this.snapshotPath) ? JSON.parse(fs.readFileSync(this.snapshotPath, 'utf8')) : {};
    const batches: WriteOp[][] = [];
    if (fs.existsSync(this.journalPath)) {
      for (const line of fs.readFileSync(this.journalPath, 'utf8').split('\n')) {
        if (!line) continue;
        try { batches.push(JSON.parse(line) as WriteOp[]); } catch { break; }
      }
    }
    return { snapshot, batches };
  }

  /** Write the full state as the new snapshot atomically, then start an empty journal. */
  compact(state: Snapshot): void {
    const tmp = this.snapshotPath + '.tmp';
    const fd = fs.openSync(tmp, 'w');
    fs.writeSync(fd, JSON.stringify(state));
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(tmp, this.snapshotPath);
    this.syncDir();
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = fs.openSync(this.journalPath, 'w');
    fs.fsyncSync(this.fd);
    this.syncDir();
  }

  append(batch: readonly WriteOp[]): void {
    if (this.fd === null) this.fd = fs.openSync(this.journalPath, 'a');
    fs.writeSync(this.fd, JSON.stringify(batch) + '\n');
    fs.fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }

  private syncDir(): void {
    const d = fs.openSync(this.dir, 'r');
    try { fs.fsyncSync(d); } finally { fs.closeSync(d); }
  }
}
