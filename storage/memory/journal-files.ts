// Where a memory store's files are in its directory, and which process owns the directory (a lock
// file holding its pid).
import fs from 'node:fs';
import path from 'node:path';
import { StorageConfigProblem } from '../types.js';

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

export type JournalFiles = ReturnType<typeof journalFiles>;

/** A file beside the journal holding bytes taken out of it (never deleted by the product). */
export function asideName(dir: string, what: 'torn' | 'damaged'): string {
  return path.join(dir, `journal.${what}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
}

/** Does `dir` hold a memory store: a journal or a snapshot (of any release's form)? */
export function holdsStore(dir: string): boolean {
  const f = journalFiles(dir);
  return [f.journal, f.snapshot, f.lineSnapshot, f.legacySnapshot].some((file) => fs.existsSync(file));
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
    const who = Number.isNaN(owner) ? '(unreadable)' : owner;
    log(`memory:${dir}: taking over the lock of process ${who}, which is no longer running`);
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
