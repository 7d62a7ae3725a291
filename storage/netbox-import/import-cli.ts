// `npm run import:netbox -- --from postgres://…/netbox --to <STORAGE_URL>`: a NetBox 3.7-4.2
// database (read only, one snapshot) into a new or empty integer store, keeping NetBox's ids; ends
// with the table of what was taken and what was left. `--dry-run` prints that table, writing nothing.
// `--from https://netbox… --token …` reads the same through NetBox's REST API (row-import-source.ts).
import { argsOrExit, commandName, type CliSpec } from '../cli-args.js';
import { createStorage, StorageConfigError, withoutPassword as shown } from '../open-storage.js';
import type { Storage } from '../types.js';
import { importNetbox } from './import-netbox.js';
import { formatReport } from './report.js';
import { NetboxApiError } from './http-client.js';
import { openNetboxSource } from './open-source.js';
import { RowImportSource } from './row-import-source.js';
import { NetboxSource, SourceRefused, type ImportSource } from './source.js';
import { claimTarget, TargetRefused, type ClaimedTarget } from './writer.js';

export const IMPORT_CLI: CliSpec = {
  command: 'npm run import:netbox --',
  summary:
    'Imports a NetBox 3.7 to 4.2 (its PostgreSQL database, or its REST API with --token) into a new or empty ' +
    "store, keeping NetBox's integer ids " +
    '(the store becomes an integer store). All or nothing: a failed import leaves the target empty. ' +
    'Ends with the table of what was taken and what was left, per NetBox table.\n' +
    'e.g. npm run import:netbox -- --from postgres://netbox@db/netbox --to postgres://netinv@db/netinv\n' +
    '     npm run import:netbox -- --from https://netbox.example.com --token <token> --to postgres://netinv@db/netinv',
  flags: [
    {
      name: 'from',
      type: 'string',
      value: 'URL',
      help: "NetBox's database: postgres://user@host/netbox (read only), or NetBox: https://netbox.example.com",
    },
    {
      name: 'token',
      type: 'string',
      value: 'TOKEN',
      help: 'with an http(s) --from: a NetBox API token that can read (only GETs are sent)',
    },
    {
      name: 'to',
      type: 'string',
      value: 'STORAGE_URL',
      help: 'the new or empty store: memory:/path/dir, postgres://… or mysql://… (not needed with --dry-run)',
    },
    { name: 'dry-run', type: 'flag', help: 'print what would be taken and left; write nothing' },
    { name: 'batch', type: 'integer', default: '5000', min: 1, max: 100000, help: 'rows per atomic write' },
  ],
};

const NAME = commandName(IMPORT_CLI);

async function main(): Promise<number> {
  const args = argsOrExit(IMPORT_CLI);
  const [from, to, dry] = [args.string('from'), args.string('to'), args.flag('dry-run')];
  const missing = [!from && '--from URL', !to && !dry && '--to STORAGE_URL'].filter(Boolean);
  if (missing.length) {
    console.error(`${NAME}: missing ${missing.join(' and ')} (--help lists the options)`);
    return 2;
  }
  if (to === 'memory:' && !dry) {
    console.error(`${NAME}: a volatile memory: store keeps nothing; import into memory:/path/dir`);
    return 2;
  }
  const token = args.string('token');
  const api = /^https?:/i.test(from);
  if (api && !token) {
    console.error(`${NAME}: --from names a NetBox API: --token TOKEN is needed (a NetBox API token that can read)`);
    return 2;
  }
  let src: ImportSource | null = null;
  let target: Storage | null = null;
  let claimed: ClaimedTarget | null = null;
  try {
    src = api ? await RowImportSource.open(await openNetboxSource({ from, token })) : await NetboxSource.open(from);
    if (!dry) {
      target = await createStorage(to, { idStyle: 'integer' });
      await target.open();
      claimed = await claimTarget(target, shown(to));
    }
    const t0 = performance.now();
    const result = await importNetbox(src, {
      target: claimed,
      batch: args.number('batch'),
      progress: (line) => console.error(`${NAME}: ${line}`),
    });
    const rows = [...result.taken.values()].reduce((a, b) => a + b, 0);
    console.log(formatReport(result.lines));
    const secs = ((performance.now() - t0) / 1000).toFixed(1);
    console.log(
      `${NAME}: NetBox ${result.version}: ${rows} rows ${dry ? 'would be taken (dry run)' : 'taken'} in ${secs} s`,
    );
    return 0;
  } catch (e) {
    const known = [SourceRefused, TargetRefused, StorageConfigError, NetboxApiError].some((k) => e instanceof k);
    console.error(`${NAME}: ${known ? (e as Error).message : (e as Error).message.split('\n')[0]}`);
    return 1;
  } finally {
    await src?.close();
    await target?.close().catch(() => undefined);
  }
}

process.exitCode = await main();
