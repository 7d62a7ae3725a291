// docs/benchmarks.md and its charts (docs/benchmarks/*.svg), made whole from the prose template and
// the newest results file of each kind. `npm run docs` writes them (tools/generated-docs.ts), so
// what the repo holds is exactly what these inputs give (test/docs/generated-docs.test.ts checks it).
import fs from 'node:fs';
import type { Ctx } from './fillers.js';
import { loadSources, type Sources } from './sources.js';
import { fill } from './template.js';
import { RESULTS_DIR } from '../results-file.js';

// The source tree's template (this module runs from dist/bench/report/).
export const TEMPLATE = new URL('../../../bench/report/template.md', import.meta.url);

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
