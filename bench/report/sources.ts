// Which results files the doc is made from: the newest of each kind in bench/results/, a file's kind
// being its name after the date (2026-11-25-filters.json is a `filters` file). Quick and partial
// runs are kinds of their own (`filters-quick`, `filters-partial`) that the doc does not read, so a
// check run never replaces the full tables.
import fs from 'node:fs';
import type {
  AllocationResults,
  BulkResults,
  CsvResults,
  ImportResults,
  FilterResults,
  GraphqlResults,
  HttpResults,
  InventoryResults,
  LifecycleResults,
  ReplicaLagResults,
  ScaleOutResults,
  StoreResults,
  StreamLagResults,
  StreamStalledResults,
  WritesResults,
} from '../results-shapes.js';

/** Each kind the doc reads, with the shape of its files. */
export interface Shapes {
  filters: FilterResults;
  'http-autocannon': HttpResults;
  'http-autocannon-10k': HttpResults;
  'http-autocannon-100k': HttpResults;
  lifecycle: LifecycleResults;
  'scale-out': ScaleOutResults;
  writes: WritesResults;
  'replica-lag': ReplicaLagResults;
  'replica-lag-before': ReplicaLagResults;
  'stream-lag': StreamLagResults;
  'stream-stalled': StreamStalledResults;
  allocation: AllocationResults;
  'stream-stalled-before': StreamStalledResults;
  store: StoreResults;
  inventory: InventoryResults;
  bulk: BulkResults;
  import: ImportResults;
  graphql: GraphqlResults;
  csv: CsvResults;
}
export type Kind = keyof Shapes;

/** The command that writes each kind (for the doc's list of files and for the error naming a missing one). */
export const KINDS: Readonly<Record<Kind, { readonly command: string }>> = {
  filters: { command: 'npm run bench' },
  'http-autocannon': { command: 'npm run bench:http' },
  'http-autocannon-10k': { command: 'npm run bench:http -- --prefixes 10000' },
  'http-autocannon-100k': { command: 'npm run bench:http -- --prefixes 100000' },
  lifecycle: { command: 'npm run bench:lifecycle' },
  'scale-out': { command: 'npm run bench:scale-out' },
  writes: { command: 'npm run bench:writes' },
  'replica-lag': { command: 'npm run bench:replica' },
  // The same bench on the code before a change, kept beside the run after it (the doc says which commit).
  'replica-lag-before': { command: 'npm run bench:replica (the code before, see the text)' },
  'stream-lag': { command: 'npm run bench:stream' },
  'stream-stalled': { command: 'npm run bench:stream -- --stalled 500' },
  'stream-stalled-before': { command: 'npm run bench:stream -- --stalled 500 (the code before, see the text)' },
  allocation: { command: 'npm run bench:allocation' },
  store: { command: 'npm run bench:store' },
  inventory: { command: 'npm run bench:inventory' },
  bulk: { command: 'npm run bench:bulk' },
  import: { command: 'npm run bench:import' },
  graphql: { command: 'npm run bench:graphql' },
  csv: { command: 'npm run bench:csv' },
};

export interface Source<K extends Kind> {
  readonly file: string;
  readonly data: Shapes[K];
}
export type Sources = { readonly [K in Kind]?: Source<K> };

const DATED = /^(\d{4}-\d{2}-\d{2})-(.+)\.json$/;

/** The newest file of each kind the doc reads, parsed. */
export function loadSources(dir: URL): Sources {
  const newest = new Map<string, string>();
  for (const name of fs.readdirSync(dir).sort()) {
    const m = DATED.exec(name);
    if (m && m[2] in KINDS) newest.set(m[2], name); // sorted by name, so by date: the last one wins
  }
  const out: Record<string, Source<Kind>> = {};
  for (const [kind, file] of newest)
    out[kind] = { file, data: JSON.parse(fs.readFileSync(new URL(file, dir), 'utf8')) as Shapes[Kind] };
  return out as Sources;
}

/** The file of `kind`, or an error saying which bench writes one. */
export function need<K extends Kind>(sources: Sources, kind: K): Source<K> {
  const s = sources[kind];
  if (!s) throw new Error(`bench/results/ has no ${kind} file: \`${KINDS[kind].command}\` writes one`);
  return s as Source<K>;
}
