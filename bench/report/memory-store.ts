// The memory store itself (`npm run bench:store`, `store` files) and the Ansible inventory over the
// whole server (`npm run bench:inventory`, `inventory` files).
import { label } from './backends.js';
import type { Filler } from './fillers.js';
import { count, duration } from './format.js';
import { table } from './markdown.js';
import { need } from './sources.js';
import type { StoreResults } from '../results-shapes.js';

const seconds = (s: number): string => duration(s * 1e6);

/** The store's figures in reading order; rows whose figure the file lacks (--no-restart) are left out. */
const STORE_ROWS: readonly [string, (r: StoreResults) => string | null][] = [
  ['prefixes loaded (after their sites, devices and tags)', (r) => `${count(r.prefixes)} (${r.shape})`],
  ['load and index', (r) => seconds(r.load_s)],
  ['… of which sorting the indexes at the end', (r) => seconds(r.of_which_sorting_s)],
  ['heap held per prefix (rows and every index)', (r) => `${count(r.bytes_per_prefix)} B`],
  ['a row object built for a page, at a random slot', (r) => duration(r.row_object_us)],
  ['snapshot written by compaction', (r) => (r.snapshot_mb === undefined ? null : `${count(r.snapshot_mb)} MB`)],
  [
    'restart: a fresh process from its start to the open store',
    (r) => (r.restart_s === undefined ? null : seconds(r.restart_s)),
  ],
  ['… of which opening the store', (r) => (r.restart_open_s === undefined ? null : seconds(r.restart_open_s))],
  [
    '… its peak resident memory',
    (r) => (r.restart_peak_rss_mb === undefined ? null : `${count(r.restart_peak_rss_mb)} MB`),
  ],
  [
    'journal of the same batches, as `bench:data` leaves it',
    (r) => (r.journal_mb === undefined ? null : `${count(r.journal_mb)} MB`),
  ],
  [
    'first start of the server on it, to `listening on` (CPU time)',
    (r) =>
      r.journal_start_s === undefined ? null : `${seconds(r.journal_start_s)} (${seconds(r.journal_start_cpu_s!)})`,
  ],
  [
    '… then from `listening on` to the answer of a first page of prefixes',
    (r) => (r.journal_first_page_s === undefined ? null : seconds(r.journal_first_page_s)),
  ],
  [
    'the next start, from the snapshot it wrote (CPU time)',
    (r) =>
      r.snapshot_start_s === undefined ? null : `${seconds(r.snapshot_start_s)} (${seconds(r.snapshot_start_cpu_s!)})`,
  ],
];

const store: Filler = (ctx) => {
  const r = need(ctx.sources, 'store').data;
  return table(
    ['', 'memory store'],
    STORE_ROWS.map(([what, f]) => [what, f(r)]).filter((x): x is [string, string] => x[1] !== null),
    [1],
  );
};

const inventory: Filler = (ctx) => {
  const r = need(ctx.sources, 'inventory').data;
  const head = [
    'backend',
    'devices',
    'virtual machines',
    '`ansible-inventory --list`',
    'the same, against the kept answers alone',
    'requests the plugin made',
    'the same requests replayed',
    'loading the rows',
  ];
  const rows = r.rows.map((x) => [
    label(x.backend),
    count(x.devices),
    count(x.vms),
    seconds(x.seconds),
    x.plugin_alone_seconds === undefined ? '' : seconds(x.plugin_alone_seconds),
    count(x.requests),
    seconds(x.server_seconds),
    seconds(x.load_s),
  ]);
  return table(head, rows, [1, 2, 3, 4, 5, 6, 7]);
};

export const STORE_FILLERS: Readonly<Record<string, Filler>> = { 'store-table': store, 'inventory-table': inventory };
