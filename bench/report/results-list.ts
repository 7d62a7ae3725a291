// The results files themselves: the list the doc links to (with the bench and the machine behind
// each), a link to one file, and a run's parameters (prefixes, connections, …) for the prose.
import type { Filler } from './fillers.js';
import { count } from './format.js';
import { table } from './markdown.js';
import { KINDS, need, type Kind } from './sources.js';
import type { Machine } from '../results-shapes.js';

/** Where docs/benchmarks.md finds bench/results/. */
const RESULTS_LINK = '../bench/results/';
const link = (file: string): string => `[${file}](${RESULTS_LINK}${file})`;
const kind = (k: string): Kind => {
  if (!(k in KINDS)) throw new Error(`no results kind ${k}`);
  return k as Kind;
};

const machine = (m: Machine): string => {
  const busy = m.load_average_1m === undefined ? '' : `; load average ${m.load_average_1m} at the start`;
  return `${m.cores} cores (${m.cpu}), ${m.memory_gib} GiB, Node ${m.node}${busy}`;
};

/** `{{results-files}}`: every file the doc is made from, linked. */
const files: Filler = (ctx) =>
  table(
    ['results file', 'written by', 'machine'],
    (Object.keys(KINDS) as Kind[])
      .filter((k) => ctx.sources[k])
      .map((k) => {
        const s = need(ctx.sources, k);
        return [link(s.file), `\`${KINDS[k].command}\``, machine(s.data.machine)];
      }),
  );

/** `{{results:KIND}}`: a link to the file of that kind. */
const results: Filler = (ctx, k) => link(need(ctx.sources, kind(k)).file);

/**
 * `{{param:KIND:FIELD}}`: a figure of the file (a count), e.g. its prefixes or connections; `machine.cores` reads a
 * nested one.
 */
const param: Filler = (ctx, k, field) => {
  const v = field
    .split('.')
    .reduce<unknown>((o, key) => (o as Record<string, unknown> | undefined)?.[key], need(ctx.sources, kind(k)).data);
  if (typeof v !== 'number') throw new Error(`param: ${k} has no number ${field}`);
  return count(v);
};

export const RESULTS_FILLERS: Readonly<Record<string, Filler>> = { 'results-files': files, results, param };
