// HTTP load (`npm run bench:http`, `http-autocannon` files): requests/s, p50 and p99 of each query
// per backend beside the bare-Express reference row, as a table, two charts, and single figures
// for the prose.
import { color, label } from './backends.js';
import { CHART_DIR, type Filler } from './fillers.js';
import { count, ms, perSecond, share, short } from './format.js';
import { image, table } from './markdown.js';
import { need } from './sources.js';
import { barPanel, barsHeight, decades, labelsWidth, svgDocument, type BarGroup } from './svg.js';
import type { HttpResults, HttpRow } from '../results-shapes.js';

/** bench/http.ts's name for the reference row: a bare Express app sending the same bodies. */
const REFERENCE = 'reference: bare Express';

/** The HTTP runs by size: the 1M run, and the 10k and 100k ones. */
type HttpKind = 'http-autocannon' | 'http-autocannon-10k' | 'http-autocannon-100k';
const HTTP_KINDS: readonly HttpKind[] = ['http-autocannon', 'http-autocannon-10k', 'http-autocannon-100k'];
const kindOf = (k: string | undefined): HttpKind => {
  const kind = (k ?? 'http-autocannon') as HttpKind;
  if (!HTTP_KINDS.includes(kind)) throw new Error(`${k} is no HTTP results kind (${HTTP_KINDS.join(', ')})`);
  return kind;
};
const results = (ctx: Parameters<Filler>[0], kind?: string): HttpResults => need(ctx.sources, kindOf(kind)).data;
/** Chart files of one run: the 1M run's keep their names. */
const chartName = (base: string, kind?: string) => `${base}${kindOf(kind).replace('http-autocannon', '')}.svg`;
const queries = (r: HttpResults): string[] => [...new Set(r.rows.map((x) => x.query))];
const backends = (r: HttpResults): string[] => [...new Set(r.rows.map((x) => x.backend))];
const row = (r: HttpResults, backend: string, query: string): HttpRow | undefined =>
  r.rows.find((x) => x.backend === backend && x.query === query);
/** A run where no request completed has no rate or latency to show. */
const completed = (x: HttpRow): boolean => x.rps > 0;
const rowOrThrow = (r: HttpResults, backend: string, query: string): HttpRow => {
  const x = row(r, backend, query);
  if (!x) throw new Error(`no ${query} on ${backend}`);
  return x;
};

/** `{{http-table[:KIND]}}`: each query, each backend in the run's order (the reference last). */
const httpTable: Filler = (ctx, kind) => {
  const r = results(ctx, kind);
  // Runs that also timed requests one at a time get that column ("—" where a row has none).
  const singles = r.rows.some((x) => x.single_ms !== undefined);
  const single = (x: HttpRow) => (singles ? [x.single_ms === undefined ? '—' : ms(x.single_ms)] : []);
  const line = (x: HttpRow) => {
    if (!completed(x))
      return [x.query, label(x.backend), 'none completed', '—', '—', '—', count(x.errors), ...single(x)];
    const ref = row(r, REFERENCE, x.query);
    const of = x.backend !== REFERENCE && ref ? share(x.rps, ref.rps) : '';
    return [x.query, label(x.backend), count(x.rps), of, ms(x.p50_ms), ms(x.p99_ms), count(x.errors), ...single(x)];
  };
  const rows = queries(r).flatMap((q) =>
    backends(r).flatMap((b) => {
      const x = row(r, b, q);
      return x ? [line(x)] : [];
    }),
  );
  const head = [
    'query',
    'backend',
    'requests/s',
    'of reference',
    'p50',
    'p99',
    'errors',
    ...(singles ? ['one at a time (median)'] : []),
  ];
  return table(head, rows, singles ? [2, 3, 4, 5, 6, 7] : [2, 3, 4, 5, 6]);
};

/** Bars per query, one per backend; `pick` chooses the figure. */
const groups = (r: HttpResults, pick: (x: HttpRow) => number): BarGroup[] =>
  queries(r).map((q) => ({
    label: q,
    bars: backends(r).flatMap((b) => {
      const x = row(r, b, q);
      return x ? [{ color: color(b), value: completed(x) ? pick(x) : null }] : [];
    }),
  }));
const TOP = 72,
  PANEL_W = 300,
  VALUE_ROOM = 56;

/** `{{http-charts[:KIND]}}`: requests/s per query and backend; p50 and p99 beside each other. */
const httpCharts: Filler = (ctx, kind) => {
  const r = results(ctx, kind),
    done = r.rows.filter(completed);
  const [requests, latency] = [chartName('http-requests', kind), chartName('http-latency', kind)];
  const legend = backends(r).map((b) => ({ label: label(b), color: color(b) }));
  const size = `${short(r.prefixes)} prefixes`;
  const rps = groups(r, (x) => x.rps),
    left = labelsWidth(rps) + 8,
    h = barsHeight(rps);
  const panel = (x: number) => ({ x, y: TOP, w: PANEL_W, h });
  const second = left + PANEL_W + VALUE_ROOM,
    height = TOP + h + 34;
  const rpsAxis = decades(
    done.map((x) => x.rps),
    short,
    true,
  );
  ctx.charts.set(
    requests,
    svgDocument(
      second,
      height,
      `Requests/s over HTTP, ${size}`,
      legend,
      barPanel(panel(left), 'requests/s (log scale)', rpsAxis, rps, { groupLabels: true, value: count }),
    ),
  );
  const axis = decades(
    done.flatMap((x) => [x.p50_ms, x.p99_ms]),
    ms,
    true,
  );
  ctx.charts.set(
    latency,
    svgDocument(second + PANEL_W + VALUE_ROOM, height, `Latency over HTTP, ${size}`, legend, [
      ...barPanel(
        panel(left),
        'p50 (log scale)',
        axis,
        groups(r, (x) => x.p50_ms),
        { groupLabels: true, value: ms },
      ),
      ...barPanel(
        panel(second),
        'p99 (log scale)',
        axis,
        groups(r, (x) => x.p99_ms),
        { groupLabels: false, value: ms },
      ),
    ]),
  );
  return [
    image(`Requests/s over HTTP per query and backend, ${size}`, `${CHART_DIR}/${requests}`),
    image(`p50 and p99 over HTTP per query and backend, ${size}`, `${CHART_DIR}/${latency}`),
  ].join('\n');
};

/** `{{http:BACKEND:QUERY}}`: "16 requests/s (p50 1.64 s, p99 3.05 s)", or that none completed. */
const one: Filler = (ctx, backend, query) => oneAt(ctx, 'http-autocannon', backend, query);

/** `{{http-at:KIND:BACKEND:QUERY}}`: as `http`, from the run of that kind (`http-autocannon-100k`). */
const oneAt: Filler = (ctx, kind, backend, query) => {
  const x = rowOrThrow(results(ctx, kind), backend, query);
  return completed(x)
    ? `${perSecond(x.rps)} (p50 ${ms(x.p50_ms)}, p99 ${ms(x.p99_ms)})`
    : 'no request completed within the run';
};

/** `{{http-single:KIND:BACKEND:QUERY}}`: the median time of the query asked one request at a time. */
const singleOf: Filler = (ctx, kind, backend, query) => {
  const v = rowOrThrow(results(ctx, kind), backend, query).single_ms;
  if (v === undefined) throw new Error(`${kind} has no one-at-a-time time for ${query} on ${backend}`);
  return ms(v);
};

/** `{{http-share:KIND:BACKEND:QUERY}}`: the backend's requests/s as a share of the reference row's. */
const shareOf: Filler = (ctx, kind, backend, query) => {
  const r = results(ctx, kind);
  return share(rowOrThrow(r, backend, query).rps, rowOrThrow(r, REFERENCE, query).rps);
};

/** `{{http-vs:KIND:BACKEND:QUERY:OTHER}}`: the query's requests/s as a share of another query's on the same backend. */
const versus: Filler = (ctx, kind, backend, query, other) => {
  const r = results(ctx, kind);
  return share(rowOrThrow(r, backend, query).rps, rowOrThrow(r, backend, other).rps);
};

/** `{{http-errors:BACKEND:QUERY}}`: how many requests of the run failed. */
const errors: Filler = (ctx, backend, query) => count(rowOrThrow(results(ctx), backend, query).errors);

export const HTTP_FILLERS: Readonly<Record<string, Filler>> = {
  'http-table': httpTable,
  'http-charts': httpCharts,
  http: one,
  'http-at': oneAt,
  'http-single': singleOf,
  'http-share': shareOf,
  'http-vs': versus,
  'http-errors': errors,
};
