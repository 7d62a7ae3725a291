// GraphQL requests (`graphql` files): per case and backend, the median and p99 of one request at a time
// against #37's targets, and the RSS a request at GRAPHQL_MAX_OBJECTS adds.
import { label } from './backends.js';
import type { Filler } from './fillers.js';
import { count, ms } from './format.js';
import { code, table } from './markdown.js';
import { need } from './sources.js';

const verdict = (v: number, target: number | null): string =>
  target === null ? '—' : `≤ ${target} ms: ${v <= target ? 'met' : '**missed**'}`;

/** `{{graphql-table}}`: one row per case and backend. */
const graphqlTable: Filler = (ctx) => {
  const r = need(ctx.sources, 'graphql').data;
  const rows = r.cases.map((c) =>
    c.error
      ? [code(r.queries[c.case] ?? c.case), label(c.backend), '—', '—', '—', '—', '—', `failed: ${c.error}`]
      : [
          code(r.queries[c.case] ?? c.case),
          label(c.backend),
          count(c.objects),
          ms(c.median_ms),
          ms(c.p99_ms),
          c.samples,
          `${Math.round(c.gc_share * 100)} %`,
          verdict(c.median_ms, c.target_ms),
        ],
  );
  const head = ['query', 'backend', 'objects', 'median', 'p99', 'timed requests', 'GC', 'target (median)'];
  return table(head, rows, [2, 3, 4, 5, 6]);
};

/** `{{graphql-rss}}`: the RSS a request at GRAPHQL_MAX_OBJECTS adds, per backend. */
const graphqlRss: Filler = (ctx) => {
  const r = need(ctx.sources, 'graphql').data;
  const rows = r.rss.map((x) => [
    label(x.backend),
    count(x.objects),
    `${count(x.ms)} ms`,
    `${count(x.rss_before_mb)} MB`,
    `${count(x.rss_growth_mb)} MB`,
    `≤ ${x.target_mb} MB: ${x.rss_growth_mb <= x.target_mb ? 'met' : '**missed**'}`,
  ]);
  return table(['backend', 'objects', 'answered in', 'RSS before', 'RSS growth', 'target'], rows, [1, 2, 3, 4]);
};

export const GRAPHQL_FILLERS: Readonly<Record<string, Filler>> = {
  'graphql-table': graphqlTable,
  'graphql-rss': graphqlRss,
};
