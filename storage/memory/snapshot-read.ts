// A memory store's snapshot read at start, in whichever form the directory holds: the tables'
// columns (column-snapshot.ts), or the JSON lines or single object of earlier releases.
import fs from 'node:fs';
import type { TableImage } from '../../engine/memory/columns/column-image.js';
import type { Row } from '../types.js';
import { readColumnSnapshot, type IdCounters } from './column-snapshot.js';
import type { JournalFiles } from './journal-files.js';
import { eachJsonLine } from './journal-io.js';
import { SnapshotReader, type SnapshotVisitor } from './snapshot-format.js';

/** What a snapshot is read into: whole tables (the current format) or rows (earlier ones). */
export interface SnapshotLoader extends SnapshotVisitor {
  image(resource: string, image: TableImage): void;
  /** The counters of new ids the snapshot carries (an integer store's; earlier forms carry none). */
  counters?(ids: IdCounters): void;
}

export type SnapshotForm = 'columns' | 'lines' | 'object' | 'none';

/** The newest form present, the one read: compaction writes snapshot.bin before it removes the others. */
export function snapshotForm(f: JournalFiles): SnapshotForm {
  if (fs.existsSync(f.snapshot)) return 'columns';
  if (fs.existsSync(f.lineSnapshot)) return 'lines';
  if (fs.existsSync(f.legacySnapshot)) return 'object';
  return 'none';
}

/**
 * Gives the snapshot of `form` to `visit`, a table or a row at a time; the generation of the
 * journal that follows it (null: no snapshot, or one without a generation). A damaged snapshot
 * throws SnapshotDamage.
 */
export function readSnapshotForm(f: JournalFiles, form: SnapshotForm, visit: SnapshotLoader): number | null {
  if (form === 'columns') {
    const mark = readColumnSnapshot(f.snapshot, (resource, image) => visit.image(resource, image));
    visit.counters?.(mark.ids);
    return mark.journal;
  }
  if (form === 'lines') {
    const reader = new SnapshotReader(visit);
    eachJsonLine(f.lineSnapshot, (v) => reader.line(v));
  } else if (form === 'object') {
    const all = JSON.parse(fs.readFileSync(f.legacySnapshot, 'utf8')) as Record<string, Row[]>;
    for (const [resource, rows] of Object.entries(all)) for (const row of rows) visit.row(resource, row);
  }
  return null;
}
