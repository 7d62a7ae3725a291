// A `memory:/dir` store's id style, kept durably in its directory: the file `id-style` holds the
// style's name. It is written once, when the store is created (a directory holding no journal and
// no snapshot), before anything else of the store, atomically (a temporary file, fsynced, renamed,
// the directory fsynced), and never changed: a start reads the style the store was created with.
// A store without the file was written by a release before id styles: a UUID store.
import fs from 'node:fs';
import path from 'node:path';
import { ID_STYLE, ID_STYLES, type IdStyle, type IdStyleName } from '../../engine/schema/id-style.js';
import { StorageConfigError } from '../types.js';
import { holdsStore } from './journal-files.js';
import { syncDir, writeSynced } from './journal-io.js';

export const idStyleFile = (dir: string) => path.join(dir, 'id-style');

/**
 * The style of the store at `dir` (the lock is held): its own, or for a new store `wanted` (default
 * uuid), recorded now. An explicit `wanted` that differs from an existing store's style throws
 * StorageConfigError naming both.
 */
export function storeIdStyle(dir: string, wanted: IdStyleName | undefined): IdStyle {
  const file = idStyleFile(dir);
  let held: IdStyleName;
  if (fs.existsSync(file)) {
    const text = fs.readFileSync(file, 'utf8').trim();
    if (!ID_STYLES.includes(text as IdStyleName))
      throw new StorageConfigError(
        `memory:${dir}: ${file} names no id style ("${text.slice(0, 40)}"; one of ${ID_STYLES.join(', ')})`,
      );
    held = text as IdStyleName;
  } else if (holdsStore(dir)) held = 'uuid';
  else {
    held = wanted ?? 'uuid';
    writeSynced(`${file}.tmp`, Buffer.from(`${held}\n`));
    fs.renameSync(`${file}.tmp`, file);
    syncDir(dir);
  }
  if (wanted !== undefined && wanted !== held)
    throw new StorageConfigError(
      `the store at ${dir} has ${held} ids; ID_STYLE=${wanted} cannot change that ` +
        '(ids are chosen when a store is created)',
    );
  return ID_STYLE[held];
}
