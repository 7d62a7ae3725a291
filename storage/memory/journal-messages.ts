// What a start of a memory store says when its files cannot be read as they are: one message for
// the operator naming the file, the place and what to do.
import path from 'node:path';
import type { Damage } from './journal-format.js';
import { journalFiles } from './journal-files.js';
import type { SnapshotDamage } from './column-snapshot.js';

/** What a start says when the snapshot cannot be read. */
export function snapshotDamageMessage(d: SnapshotDamage): string {
  return (
    `snapshot ${d.file} is damaged at byte ${d.offset} (${d.reason}): the store was not started, ` +
    'nothing was changed. The snapshot holds every row compacted into it and the journal only what ' +
    'came after, so the store cannot start without it: ' +
    `restore ${path.dirname(d.file)} from a backup (or move the directory aside to start empty).`
  );
}

/** What a start says when the journal follows a snapshot that is not the one it was written after. */
export function journalAheadMessage(dir: string, journal: number, snapshot: number | null, form: string): string {
  const f = journalFiles(dir);
  const older = form === 'columns' ? f.snapshot : form === 'lines' ? f.lineSnapshot : f.legacySnapshot;
  const which =
    form === 'none'
      ? `there is no snapshot (${f.snapshot})`
      : snapshot === null
        ? `the snapshot (${older}) is older than that`
        : `the snapshot ${f.snapshot} is of generation ${snapshot}`;
  return (
    `journal ${f.journal} is of generation ${journal}: it holds only the writes made after a snapshot ` +
    `of generation ${journal}, but ${which}. The rows between are in neither file, so the store was ` +
    `not started, nothing was changed: restore ${dir} from a backup taken whole (snapshot and journal together).`
  );
}

/** What a start says when a damaged record of the journal has readable ones after it. */
export function damageMessage(file: string, d: Damage): string {
  const dir = path.dirname(file);
  return (
    `journal ${file} is damaged at byte ${d.offset} (${d.reason}) and readable records follow it: ` +
    'the store was not started, nothing was changed. ' +
    `Run \`npm run journal -- check ${dir}\` to see it and \`npm run journal -- repair ${dir}\` to keep ` +
    'every record before the damage (the rest is moved to a file beside the journal, not deleted).'
  );
}
