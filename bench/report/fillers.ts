// What a placeholder of the template can be: `{{name}}` or `{{name:arg:arg}}` is replaced by
// FILLERS[name](ctx, ...args). A filler that draws a chart adds the SVG to `ctx.charts`.
import type { Sources } from './sources.js';

export interface Ctx {
  readonly sources: Sources;
  /** File name (in docs/benchmarks/) -> SVG text, as the fillers draw them. */
  readonly charts: Map<string, string>;
}

export type Filler = (ctx: Ctx, ...args: string[]) => string;

/** Where the doc links its charts, relative to docs/. */
export const CHART_DIR = 'benchmarks';
