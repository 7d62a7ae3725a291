// CSV over HTTP (`csv` files, bench/csv.bench.ts): the export of the whole prefix list, the import of a prefix
// CSV, and a page of 50 alone and while an export runs, per backend, against #38's targets (scaled to the sizes
// run: the file says them).
import { label } from './backends.js';
import type { Filler } from './fillers.js';
import { count, ms } from './format.js';
import { table } from './markdown.js';
import { need } from './sources.js';

const met = (ok: boolean) => (ok ? 'met' : '**missed**');
/** #38's bounds that do not scale with the size: the RSS growth and the first byte. */
const RSS_MB = 100;
const FIRST_BYTE_MS = 200;

/** `{{csv-exports}}`: one row per backend. */
const csvExports: Filler = (ctx) => {
  const rows = need(ctx.sources, 'csv').data.exports.map((e) =>
    e.error
      ? [label(e.backend), '—', '—', '—', '—', '—', `failed: ${e.error}`]
      : [
          label(e.backend),
          count(e.rows),
          `${count(Math.round(e.bytes / 2 ** 20))} MB`,
          `${ms(e.first_byte_ms)} (≤ ${FIRST_BYTE_MS} ms: ${met(e.first_byte_ms <= FIRST_BYTE_MS)})`,
          `${ms(e.total_ms)} (≤ ${ms(e.target_ms)}: ${met(e.total_ms <= e.target_ms)})`,
          `${count(e.rss_before_mb)} MB`,
          `+${count(e.rss_growth_mb)} MB (≤ ${RSS_MB} MB: ${met(e.rss_growth_mb <= RSS_MB)})`,
        ],
  );
  return table(['backend', 'rows', 'size', 'first byte', 'whole export', 'RSS before', 'RSS growth'], rows, [1, 2]);
};

/** `{{csv-imports}}`: one row per backend. */
const csvImports: Filler = (ctx) => {
  const rows = need(ctx.sources, 'csv').data.imports.map((i) =>
    i.error
      ? [label(i.backend), count(i.rows), '—', `failed: ${i.error}`]
      : [
          label(i.backend),
          count(i.rows),
          i.mode,
          `${ms(i.total_ms)} (≤ ${ms(i.target_ms)}: ${met(i.total_ms <= i.target_ms)})`,
        ],
  );
  return table(['backend', 'rows', 'run as', 'time'], rows, [1]);
};

/** `{{csv-pages}}`: a page of 50 alone and during an export. */
const csvPages: Filler = (ctx) => {
  const rows = need(ctx.sources, 'csv').data.pages.map((p) => [
    label(p.backend),
    `${ms(p.alone.p50)} / ${ms(p.alone.p99)} (${p.alone_samples})`,
    `${ms(p.during_export.p50)} / ${ms(p.during_export.p99)} (${p.during_samples})`,
    `${(p.during_export.p99 / p.alone.p99).toFixed(1)}× (≤ 2×: ${met(p.during_export.p99 <= 2 * p.alone.p99)})`,
  ]);
  return table(['backend', 'alone: p50 / p99 (pages)', 'during an export', 'p99 grows'], rows, []);
};

export const CSV_FILLERS: Readonly<Record<string, Filler>> = {
  'csv-exports': csvExports,
  'csv-imports': csvImports,
  'csv-pages': csvPages,
};
