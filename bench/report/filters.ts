// The filter benchmark (`npm run bench`, `filters` files): what each backend takes per query class
// and dataset size, the detailed tables with ratios, and one chart per class (median and p99).
import { FILTER_BACKENDS, color, label } from './backends.js';
import { CHART_DIR, type Filler } from './fillers.js';
import { count, duration, pair, short, times } from './format.js';
import { code, image, table } from './markdown.js';
import { need } from './sources.js';
import { decades, linePanel, svgDocument, ticksAt, type Box } from './svg.js';
import { BENCH_PICK, queryClasses } from '../query-classes.js';
import type { FilterResults, Measurement } from '../results-shapes.js';

/** The SQL columns of the detailed tables, in this order. */
const SQL = ['postgres', 'mysql', 'mysql9'] as const;
/** What the ratios compare the SQL backends with: memory as a request gets it. */
const SERVED = 'memory+rows';

const results = (ctx: Parameters<Filler>[0]): FilterResults => need(ctx.sources, 'filters').data;
const sizes = (r: FilterResults): number[] => [...new Set(r.measurements.map((m) => m.size))].sort((a, b) => a - b);
const classes = (r: FilterResults): string[] => [...new Set(r.measurements.map((m) => m.class))];
/**
 * The product's query classes: those measured with the page's rows built. The others (parse + plan
 * alone, Nautobot's SQL form) are measured beside them for comparison and shown only in detail.
 */
const productClasses = (r: FilterResults): string[] =>
  classes(r).filter((c) => r.measurements.some((m) => m.class === c && m.backend === SERVED));
const find = (r: FilterResults, size: number, backend: string, cls: string): Measurement | undefined =>
  r.measurements.find((m) => m.size === size && m.backend === backend && m.class === cls);
const cell = (m: Measurement | undefined): string => (m ? pair(m.median_us, m.p99_us) : '—');
const ratio = (fast: Measurement | undefined, slow: Measurement | undefined): string =>
  fast && slow && fast.median_us > 0 ? times(fast.median_us, slow.median_us) : '—';
/** Rows a class matched at a size, from whichever backend measured it (they agree). */
const matched = (r: FilterResults, size: number, cls: string): number | undefined =>
  r.measurements.find((x) => x.size === size && x.class === cls)?.matched;

/** `{{filter-sizes}}`: the dataset sizes measured, "10,000, 100,000 and 1,000,000". */
const sizeList: Filler = (ctx) => {
  const ss = sizes(results(ctx)).map(count);
  return ss.length > 1 ? `${ss.slice(0, -1).join(', ')} and ${ss[ss.length - 1]}` : ss.join('');
};

/** `{{filter-size:N}}`: N written out, once the results are known to hold that size. */
const oneSize: Filler = (ctx, n) => {
  if (!sizes(results(ctx)).includes(Number(n))) throw new Error(`filter-size: no run at ${n} prefixes`);
  return count(Number(n));
};

/** `{{filter-databases}}`: the database versions the filter run recorded. */
const databases: Filler = (ctx) => {
  const m = results(ctx).machine;
  // PostgreSQL and MariaDB as their clients on the machine name them, MySQL 9 as its server does.
  const found: [string, string | undefined][] = [
    ['PostgreSQL', /PostgreSQL\) (\S+)/.exec(m.postgres ?? '')?.[1]],
    ['MariaDB', /Distrib (\S+)-MariaDB/.exec(m.mysql ?? '')?.[1]],
    ['MySQL', m.servers?.mysql9],
  ];
  return found
    .filter(([, v]) => v)
    .map(([name, v]) => `${name} ${v}`)
    .join(', ');
};

/** `{{filters-expect:BACKEND}}`: per query class, median / p99 at each size on one backend. */
const expect: Filler = (ctx, backend) => {
  const r = results(ctx);
  if (!(backend in FILTER_BACKENDS)) throw new Error(`filters-expect: no backend ${backend}`);
  const ss = sizes(r);
  const matches = (c: string) =>
    ss
      .map((s) => {
        const n = matched(r, s, c);
        return n === undefined ? '—' : count(n);
      })
      .join(' / ');
  const rows = productClasses(r).map((c) => [c, ...ss.map((s) => cell(find(r, s, backend, c))), matches(c)]);
  const head = ['query class', ...ss.map((s) => `${short(s)} prefixes`), `rows matched (${ss.map(short).join(' / ')})`];
  return table(
    head,
    rows,
    ss.map((_, i) => i + 1),
  );
};

/**
 * `{{filters-queries}}`: the query each class sends. The bench draws its addresses from sampled rows
 * of the dataset; the documentation blocks stand in for those samples here.
 */
const STAND_INS = ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24'];
const queries: Filler = () =>
  [
    `The queries, with ${STAND_INS.join(', ')} standing in for the prefixes the bench samples from its dataset:`,
    '',
    table(
      ['query class', 'query string'],
      queryClasses(STAND_INS, BENCH_PICK).map((q) => [q.name, q.query ? code(q.query) : '(none)']),
    ),
  ].join('\n');

/** One size's detailed table: every class, engine level and scan included, with ratios of medians. */
function detailTable(r: FilterResults, size: number): string {
  const sql = SQL.filter((b) => r.measurements.some((m) => m.size === size && m.backend === b));
  const name = (b: string) => label(b, FILTER_BACKENDS);
  const head = [
    'query class',
    'rows',
    name('memory'),
    name(SERVED),
    ...sql.map(name),
    'scan median',
    ...sql.map((b) => `memory vs ${name(b)}`),
    'memory vs scan',
  ];
  const rows = classes(r).map((c) => {
    const [engine, served, scan] = [find(r, size, 'memory', c), find(r, size, SERVED, c), find(r, size, 'scan', c)];
    const bySql = sql.map((b) => find(r, size, b, c));
    return [
      c,
      count(matched(r, size, c) ?? 0),
      cell(engine),
      cell(served),
      ...bySql.map(cell),
      scan ? duration(scan.median_us) : '—',
      ...bySql.map((m) => ratio(served ?? engine, m)),
      ratio(engine, scan),
    ];
  });
  return table(head, rows, head.map((_, i) => i).slice(1));
}

/** `{{filters-detail}}`: a table per size, then what loading the dataset took. */
const detail: Filler = (ctx) => {
  const r = results(ctx);
  return sizes(r)
    .map((size) => {
      // A load is the dataset into a backend: memory once, for both of its columns.
      const loads = r.loads.filter((l) => l.size === size).map((l) => `${label(l.backend)} ${duration(l.ms * 1000)}`);
      return [
        `### ${count(size)} prefixes`,
        '',
        'Cells are median / p99; the ratios compare medians.',
        '',
        detailTable(r, size),
        '',
        `Loading the dataset: ${loads.join(', ')}.`,
      ].join('\n');
    })
    .join('\n\n');
};

const slug = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** One class: median and p99 against the dataset size, a line per backend, log scales. */
function classChart(r: FilterResults, cls: string): string {
  const ms = r.measurements.filter((m) => m.class === cls && m.backend in FILTER_BACKENDS && m.median_us > 0);
  const backends = Object.keys(FILTER_BACKENDS).filter((b) => ms.some((m) => m.backend === b));
  const x = ticksAt(sizes(r), (s) => `${short(s)} rows`);
  const y = decades(
    ms.flatMap((m) => [m.median_us, m.p99_us]),
    duration,
  );
  const lines = (pick: (m: Measurement) => number) =>
    backends.map((b) => ({
      color: color(b, FILTER_BACKENDS),
      points: ms
        .filter((m) => m.backend === b)
        .sort((a, c) => a.size - c.size)
        .map((m) => [m.size, pick(m)] as const),
    }));
  const panel = (b: Box, title: string, pick: (m: Measurement) => number) => linePanel(b, title, x, y, lines(pick));
  const top = 72,
    h = 190,
    w = 240;
  const legend = backends.map((b) => ({ label: label(b, FILTER_BACKENDS), color: color(b, FILTER_BACKENDS) }));
  return svgDocument(640, top + h + 34, `${cls}: latency by dataset size`, legend, [
    ...panel({ x: 60, y: top, w, h }, 'median', (m) => m.median_us),
    ...panel({ x: 380, y: top, w, h }, 'p99', (m) => m.p99_us),
  ]);
}

/** `{{filters-charts}}`: a chart per query class, in the tables' order. */
const charts: Filler = (ctx) => {
  const r = results(ctx);
  return productClasses(r)
    .map((c) => {
      const file = `filters-${slug(c)}.svg`;
      ctx.charts.set(file, classChart(r, c));
      return image(`${c}: median and p99 by dataset size`, `${CHART_DIR}/${file}`);
    })
    .join('\n');
};

/** `{{filter:SIZE:BACKEND:CLASS}}`: one figure in the prose, "median (p99 …)". */
const one: Filler = (ctx, size, backend, cls) => {
  const m = find(results(ctx), Number(size), backend, cls);
  if (!m) throw new Error(`filter: no ${cls} on ${backend} at ${size} prefixes`);
  return `${duration(m.median_us)} (p99 ${duration(m.p99_us)})`;
};

export const FILTER_FILLERS: Readonly<Record<string, Filler>> = {
  'filter-sizes': sizeList,
  'filter-size': oneSize,
  'filter-databases': databases,
  'filters-expect': expect,
  'filters-queries': queries,
  'filters-detail': detail,
  'filters-charts': charts,
  filter: one,
};
