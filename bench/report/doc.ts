// docs/benchmarks.md and its charts (docs/benchmarks/*.svg), made whole from the prose template and
// the newest results file of each kind. The doc is only ever written here, so what the repo holds is
// exactly what these inputs give (test/bench-report.test.ts checks it byte for byte).
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Ctx } from './fillers.js';
import { loadSources, type Sources } from './sources.js';
import { fill } from './template.js';
import { RESULTS_DIR } from '../results-file.js';

// Source-tree paths (this module runs from dist/bench/report/).
export const TEMPLATE = new URL('../../../bench/report/template.md', import.meta.url);
export const DOC = new URL('../../../docs/benchmarks.md', import.meta.url);
export const CHARTS_DIR = new URL('../../../docs/benchmarks/', import.meta.url);

export interface Rendered {
  readonly markdown: string;
  readonly charts: ReadonlyMap<string, string>;
}

export function render(template: string, sources: Sources): Rendered {
  const ctx: Ctx = { sources, charts: new Map() };
  return { markdown: fill(template, ctx), charts: ctx.charts };
}

/** The doc as the repo's template and results files give it, in memory. */
export const renderFromRepo = (): Rendered => render(fs.readFileSync(TEMPLATE, 'utf8'), loadSources(RESULTS_DIR));

/** The charts now in docs/benchmarks/. */
export const chartFiles = (): string[] =>
  fs
    .readdirSync(CHARTS_DIR)
    .filter((f) => f.endsWith('.svg'))
    .sort();

/** Writes the doc and its charts; a chart the doc no longer draws is removed. Returns the paths written. */
export function writeDoc(r: Rendered = renderFromRepo()): string[] {
  fs.mkdirSync(CHARTS_DIR, { recursive: true });
  for (const f of chartFiles()) if (!r.charts.has(f)) fs.rmSync(new URL(f, CHARTS_DIR));
  const written = [fileURLToPath(DOC)];
  fs.writeFileSync(DOC, r.markdown);
  for (const [name, svg] of r.charts) {
    fs.writeFileSync(new URL(name, CHARTS_DIR), svg);
    written.push(fileURLToPath(new URL(name, CHARTS_DIR)));
  }
  return written;
}
