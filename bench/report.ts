// Benchmark JSON -> the generated section of docs/benchmarks.md and SVG charts
// (median latency against row count per backend, log scales).
import fs from 'node:fs';
import { replaceSection } from '../server/tools/doc-sections.js';

export interface Measurement { size: number; backend: string; class: string; matched: number; median_us: number; p99_us: number; ops_per_s: number; samples: number }
export interface BenchResults {
  machine: Record<string, unknown>;
  shape: string; seed: number;
  measurements: Measurement[];
  loads: { size: number; backend: string; ms: number }[];
  notes: string[];
}

const BACKENDS = ['memory', 'memory+rows', 'postgres', 'mysql', 'mysql9', 'scan'];
const COLORS: Record<string, string> = { memory: '#1b7f3b', 'memory+rows': '#7fbf7f', postgres: '#1f5fbf', mysql: '#d97a00', mysql9: '#a0306a', scan: '#888888' };
/** The SQL columns of the tables: backend name (as results record it) and heading. */
const SQL_COLUMNS: readonly [string, string][] = [['postgres', 'PostgreSQL'], ['mysql', 'MariaDB'], ['mysql9', 'MySQL 9']];
const fmt = (us: number | undefined) => (us === undefined ? '—' : us < 1000 ? `${us} µs` : `${(us / 1000).toFixed(us < 10000 ? 2 : 1)} ms`);
const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || a === 0 ? '—' : `${(b / a).toFixed(b / a < 10 ? 1 : 0)}×`);
const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

function chart(cls: string, ms: Measurement[]): string {
  const W = 420, H = 260, L = 60, R = 110, T = 30, B = 40;
  const sizes = [...new Set(ms.map((m) => m.size))].sort((a, b) => a - b);
  const vals = ms.map((m) => m.median_us).filter((v) => v > 0);
  const lo = Math.floor(Math.log10(Math.min(...vals))), hi = Math.ceil(Math.log10(Math.max(...vals)));
  const sLo = Math.log10(sizes[0]), sHi = Math.log10(sizes[sizes.length - 1]);
  const x = (s: number) => L + (sHi === sLo ? (W - L - R) / 2 : ((Math.log10(s) - sLo) / (sHi - sLo)) * (W - L - R));
  const y = (v: number) => T + (1 - (Math.log10(v) - lo) / Math.max(1, hi - lo)) * (H - T - B);
  const parts: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="11">`,
    `<text x="${W / 2}" y="16" text-anchor="middle" font-size="13">${cls}: median latency</text>`];
  for (let e = lo; e <= hi; e++) parts.push(`<line x1="${L}" x2="${W - R}" y1="${y(10 ** e)}" y2="${y(10 ** e)}" stroke="#ddd"/><text x="${L - 4}" y="${y(10 ** e) + 4}" text-anchor="end">${fmt(10 ** e)}</text>`);
  for (const s of sizes) parts.push(`<text x="${x(s)}" y="${H - B + 16}" text-anchor="middle">${s >= 1e6 ? `${s / 1e6}M` : `${s / 1e3}k`} rows</text>`);
  let legend = 0;
  for (const b of BACKENDS) {
    const pts = sizes.map((s) => ms.find((m) => m.backend === b && m.size === s)).filter((m): m is Measurement => !!m && m.median_us > 0);
    if (!pts.length) continue;
    parts.push(`<polyline fill="none" stroke="${COLORS[b]}" stroke-width="2" points="${pts.map((m) => `${x(m.size)},${y(m.median_us)}`).join(' ')}"/>`);
    for (const m of pts) parts.push(`<circle cx="${x(m.size)}" cy="${y(m.median_us)}" r="3" fill="${COLORS[b]}"/>`);
    parts.push(`<text x="${W - R + 10}" y="${T + 14 + legend * 16}" fill="${COLORS[b]}">■ ${b}</text>`);
    legend++;
  }
  parts.push('</svg>');
  return parts.join('\n');
}

export function renderSection(r: BenchResults, chartDir = 'benchmarks'): { markdown: string; charts: Record<string, string> } {
  const m = r.machine;
  const lines: string[] = [
    `Taken on ${m.date}: ${m.cores} cores (${m.cpu}), ${m.memory_gib} GiB, Node ${m.node}, ${m.postgres ?? 'PostgreSQL not present'}, ${m.mysql ?? 'MySQL not present'}.`,
    ...(m.servers ? [`Database servers: ${Object.entries(m.servers as Record<string, string>).map(([k, v]) => `${k} ${v}`).join(', ')}.`] : []),
    `Dataset: ${r.shape} prefixes (one in six IPv6), seed ${r.seed}; a page of 50 ordered by network. Memory is measured at the engine level`,
    '(the count and the page\'s row slots in order) and with the page\'s row objects built from the columns ("+ rows", what a request gets);',
    'PostgreSQL, MariaDB (`mysql`) and Oracle MySQL 9 (`mysql9`) through the Storage interface (client side: compile, round trip, rows); the ratios compare them with "+ rows".',
    '"scan" runs the same plan over every row without indexes.',
    '',
  ];
  const sizes = [...new Set(r.measurements.map((x) => x.size))].sort((a, b) => a - b);
  const classes = [...new Set(r.measurements.map((x) => x.class))];
  const get = (size: number, b: string, c: string) => r.measurements.find((x) => x.size === size && x.backend === b && x.class === c);
  for (const size of sizes) {
    const sqlCols = SQL_COLUMNS.filter(([b]) => r.measurements.some((x) => x.size === size && x.backend === b));
    lines.push(`### ${size.toLocaleString('en-US')} prefixes`, '',
      `| query class | rows | memory median / p99 | memory + rows median / p99 | ${sqlCols.map(([, h]) => `${h} median / p99`).join(' | ')} | scan median | ${sqlCols.map(([, h]) => `memory vs ${h}`).join(' | ')} | memory vs scan |`,
      `|---|---|---|---|${sqlCols.map(() => '---|').join('')}---|${sqlCols.map(() => '---|').join('')}---|`);
    for (const c of classes) {
      const mem = get(size, 'memory', c), withRows = get(size, 'memory+rows', c), sc = get(size, 'scan', c);
      const sql = sqlCols.map(([b]) => get(size, b, c));
      const served = withRows ?? mem;
      const rows = (mem ?? sql.find((x) => x))?.matched ?? 0;
      const pair = (x?: Measurement) => (x ? `${fmt(x.median_us)} / ${fmt(x.p99_us)}` : '—');
      lines.push(`| ${c} | ${rows} | ${pair(mem)} | ${pair(withRows)} | ${sql.map(pair).join(' | ')} | ${fmt(sc?.median_us)} | ${sql.map((x) => ratio(served?.median_us, x?.median_us)).join(' | ')} | ${ratio(mem?.median_us, sc?.median_us)} |`);
    }
    const loads = r.loads.filter((l) => l.size === size).map((l) => `${l.backend} ${(l.ms / 1000).toFixed(1)} s`).join(', ');
    lines.push('', `Load time: ${loads}.`, '');
  }
  if (r.notes.length) lines.push('Notes:', ...r.notes.map((n) => `- ${n}`), '');
  const charts: Record<string, string> = {};
  if (sizes.length > 1) {
    lines.push('#### Charts', '');
    for (const c of classes) {
      const name = `${slug(c)}.svg`;
      charts[name] = chart(c, r.measurements.filter((x) => x.class === c));
      lines.push(`![${c}](${chartDir}/${name})`);
    }
    lines.push('');
  }
  return { markdown: lines.join('\n'), charts };
}

export function writeReport(r: BenchResults, docsDir: URL): void {
  const { markdown, charts } = renderSection(r);
  const doc = new URL('benchmarks.md', docsDir);
  fs.mkdirSync(new URL('benchmarks/', docsDir), { recursive: true });
  for (const [name, svg] of Object.entries(charts)) fs.writeFileSync(new URL(`benchmarks/${name}`, docsDir), svg);
  fs.writeFileSync(doc, replaceSection(fs.readFileSync(doc, 'utf8'), 'filters', markdown));
}
