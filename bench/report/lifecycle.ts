// Lifecycle throughput (`npm run bench:lifecycle`, `lifecycle` files): events/s on distinct
// entities and on one hot entity, per backend, as a table and a chart.
import { label } from './backends.js';
import { CHART_DIR, type Filler } from './fillers.js';
import { count, short } from './format.js';
import { image, table } from './markdown.js';
import { need } from './sources.js';
import { barPanel, barsHeight, decades, labelsWidth, svgDocument } from './svg.js';

/** The two measurements, in the table's and the chart's order. */
const SERIES = [
  { key: 'distinct', label: 'distinct entities', color: '#1f5fbf' },
  { key: 'hot', label: 'one hot entity', color: '#d97a00' },
] as const;

const lifecycleTable: Filler = (ctx) => {
  const r = need(ctx.sources, 'lifecycle').data;
  const rows = r.rows.map((x) => [label(x.backend), ...SERIES.map((s) => count(x[s.key])), count(x.hot_ok)]);
  return table(['backend', ...SERIES.map((s) => `${s.label}, events/s`), 'hot events accepted'], rows, [1, 2, 3]);
};

const lifecycleChart: Filler = (ctx) => {
  const r = need(ctx.sources, 'lifecycle').data;
  const groups = r.rows.map((x) => ({
    label: label(x.backend),
    bars: SERIES.map((s) => ({ color: s.color, value: x[s.key] })),
  }));
  const left = labelsWidth(groups) + 8,
    h = barsHeight(groups),
    top = 72;
  const axis = decades(
    r.rows.flatMap((x) => [x.distinct, x.hot]),
    short,
    true,
  );
  ctx.charts.set(
    'lifecycle.svg',
    svgDocument(
      left + 360,
      top + h + 34,
      'Lifecycle events/s',
      SERIES,
      barPanel({ x: left, y: top, w: 300, h }, 'events/s (log scale)', axis, groups, {
        groupLabels: true,
        value: count,
      }),
    ),
  );
  return image('Lifecycle events/s per backend, distinct entities and one hot entity', `${CHART_DIR}/lifecycle.svg`);
};

export const LIFECYCLE_FILLERS: Readonly<Record<string, Filler>> = {
  'lifecycle-table': lifecycleTable,
  'lifecycle-chart': lifecycleChart,
};
