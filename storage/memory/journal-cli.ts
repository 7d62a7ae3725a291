// `npm run journal -- check|repair <dir>`: the state of a `memory:/dir` journal, and its repair.
// check: how many records are good and where the first bad one is (exit 0 clean, 1 damaged).
// repair: keeps every record before the damage and moves the rest to a file beside the journal
// (nothing is deleted); refused while a live process owns the directory.
import fs from 'node:fs';
import { scanJournal } from './journal-format.js';
import { asideName, journalFiles, releaseLock, takeLock } from './journal-files.js';
import { argsOrExit, type CliSpec } from '../cli-args.js';

export const JOURNAL_CLI: CliSpec = {
  command: 'npm run journal --',
  summary:
    "check: how many records of a memory store's journal are good and where the first bad one is " +
    '(exit 0 clean, 1 damaged).\n' +
    'repair: keeps every record before the damage and moves the rest to a file beside the journal ' +
    '(refused while a process owns the directory).',
  positionals: [
    { name: 'check|repair', help: 'what to do' },
    { name: 'dir', help: 'the directory of STORAGE_URL=memory:<dir>' },
  ],
  flags: [],
};

function main(argv: readonly string[]): number {
  const [cmd, dir] = argsOrExit(JOURNAL_CLI, argv).positionals;
  if (cmd !== 'check' && cmd !== 'repair') {
    console.error(`journal: the first argument is check or repair, got "${cmd}" (--help lists the options)`);
    return 2;
  }
  const file = journalFiles(dir).journal;
  if (!fs.existsSync(file)) {
    console.log(`${file}: no journal (nothing to check)`);
    return 0;
  }
  const buf = fs.readFileSync(file);
  const scan = scanJournal(buf);
  const generation = scan.generation ? `generation ${scan.generation}, ` : '';
  const legacy = scan.legacy ? ' (some in the previous format: rewritten at the next clean start)' : '';
  const good = `${generation}${scan.batches.length} good record(s), ${scan.goodEnd} bytes${legacy}`;
  if (!scan.damage) {
    console.log(`${file}: ${good}, no damage`);
    return 0;
  }
  const d = scan.damage;
  console.log(
    `${file}: ${good}; then at byte ${d.offset}: ${d.reason}; ${buf.length - d.offset} bytes from there` +
      (d.atEnd ? ' (a torn end: a start drops it by itself)' : ', with readable records after it'),
  );
  if (cmd === 'check') return 1;
  takeLock(dir, (m) => console.log(m));
  try {
    const aside = asideName(dir, 'damaged');
    const fd = fs.openSync(aside, 'wx');
    try {
      fs.writeSync(fd, buf.subarray(d.offset));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.truncateSync(file, d.offset);
    console.log(
      `repaired: kept the ${scan.batches.length} record(s) before byte ${d.offset}; ` +
        `moved ${buf.length - d.offset} bytes to ${aside}`,
    );
    return 0;
  } finally {
    releaseLock(dir);
  }
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  console.error(`journal: ${(e as Error).message}`);
  process.exitCode = 1;
}
