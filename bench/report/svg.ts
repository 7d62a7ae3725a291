// SVG primitives of the report's charts: a document with an opaque background (a chart must read on
// a dark page too), log axes whose ticks are powers of ten labelled as a person writes them, a panel
// of lines and a panel of horizontal bars. Coordinates are rounded so the output is stable text.

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}
export interface Tick {
  readonly value: number;
  readonly label: string;
}
/** A log scale: `lo`..`hi` in powers of ten, and the ticks to draw on it. */
export interface LogAxis {
  readonly lo: number;
  readonly hi: number;
  readonly ticks: readonly Tick[];
}
export interface Swatch {
  readonly label: string;
  readonly color: string;
}

const FONT = 11;
/** Average width of a character at FONT px in a sans-serif face: enough to lay out labels. */
export const CHAR_W = 6;
const INK = '#222222',
  GRID = '#dddddd',
  AXIS = '#888888',
  BACKGROUND = '#ffffff';
const r1 = (v: number): number => Math.round(v * 10) / 10;
const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const text = (x: number, y: number, s: string, attrs = ''): string =>
  `<text x="${r1(x)}" y="${r1(y)}"${attrs ? ` ${attrs}` : ''}>${esc(s)}</text>`;
const hline = (x1: number, x2: number, y: number): string =>
  `<line x1="${r1(x1)}" x2="${r1(x2)}" y1="${y}" y2="${y}" stroke="${GRID}"/>`;
const vline = (x: number, y1: number, y2: number): string =>
  `<line x1="${x}" x2="${x}" y1="${r1(y1)}" y2="${r1(y2)}" stroke="${GRID}"/>`;
const rect = (x: number, y: number, w: number, h: number, fill: string): string =>
  `<rect x="${r1(x)}" y="${r1(y)}" width="${r1(w)}" height="${r1(h)}" fill="${fill}"/>`;

/**
 * Decades that hold every positive value, ticked at each power of ten. `room`: a bar needs length,
 * so a smallest value that is itself a power of ten (1 request/s) gets a decade below it.
 */
export function decades(values: readonly number[], label: (v: number) => string, room = false): LogAxis {
  const pos = values.filter((v) => v > 0);
  const least = Math.log10(Math.min(...pos));
  const lo = Math.floor(room && Number.isInteger(least) ? least - 1 : least);
  const hi = Math.max(lo + 1, Math.ceil(Math.log10(Math.max(...pos))));
  const ticks: Tick[] = [];
  for (let e = lo; e <= hi; e++) ticks.push({ value: 10 ** e, label: label(10 ** e) });
  return { lo, hi, ticks };
}

/** A log axis ticked at the given values only (dataset sizes), with half a step of margin. */
export function ticksAt(values: readonly number[], label: (v: number) => string): LogAxis {
  const logs = values.map(Math.log10);
  const lo = Math.min(...logs),
    hi = Math.max(...logs),
    pad = Math.max(0.5, (hi - lo) / 8);
  return { lo: lo - pad, hi: hi + pad, ticks: values.map((v) => ({ value: v, label: label(v) })) };
}

/** Where `v` falls between `from` and `to` on the axis. */
const at = (a: LogAxis, v: number, from: number, to: number): number =>
  from + ((Math.log10(v) - a.lo) / (a.hi - a.lo)) * (to - from);

/** The whole chart: background, title, a legend row under it, then the panels' parts. */
export function svgDocument(
  w: number,
  h: number,
  title: string,
  legend: readonly Swatch[],
  body: readonly string[],
): string {
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" ` +
      `font-family="sans-serif" font-size="${FONT}" fill="${INK}">`,
    rect(0, 0, w, h, BACKGROUND),
    text(w / 2, 18, title, 'text-anchor="middle" font-size="13" font-weight="bold"'),
  ];
  let x = 12;
  for (const s of legend) {
    out.push(rect(x, 28, 10, 10, s.color), text(x + 14, 37, s.label));
    x += 14 + s.label.length * CHAR_W + 16;
  }
  return [...out, ...body, '</svg>', ''].join('\n');
}

/** The frame of a panel: its title above, the left and bottom axis lines. */
function frame(b: Box, title: string): string[] {
  return [
    text(b.x + b.w / 2, b.y - 8, title, 'text-anchor="middle" font-weight="bold"'),
    `<path d="M${r1(b.x)} ${r1(b.y)}V${r1(b.y + b.h)}H${r1(b.x + b.w)}" fill="none" stroke="${AXIS}"/>`,
  ];
}

export interface LineSeries {
  readonly color: string;
  readonly points: readonly (readonly [number, number])[];
}

/** Lines over a log x and a log y axis, a dot at each point. */
export function linePanel(b: Box, title: string, x: LogAxis, y: LogAxis, series: readonly LineSeries[]): string[] {
  const px = (v: number) => r1(at(x, v, b.x, b.x + b.w)),
    py = (v: number) => r1(at(y, v, b.y + b.h, b.y));
  const out: string[] = [];
  for (const t of y.ticks) {
    out.push(hline(b.x, b.x + b.w, py(t.value)), text(b.x - 5, py(t.value) + 4, t.label, 'text-anchor="end"'));
  }
  for (const t of x.ticks) out.push(text(px(t.value), b.y + b.h + 16, t.label, 'text-anchor="middle"'));
  out.push(...frame(b, title));
  for (const s of series.filter((x) => x.points.length)) {
    const points = s.points.map(([u, v]) => `${px(u)},${py(v)}`).join(' ');
    out.push(`<polyline fill="none" stroke="${s.color}" stroke-width="2" points="${points}"/>`);
    for (const [u, v] of s.points) out.push(`<circle cx="${px(u)}" cy="${py(v)}" r="3" fill="${s.color}"/>`);
  }
  return out;
}

/** One bar; `null`: the series has no figure here (drawn as "none"). */
export interface Bar {
  readonly color: string;
  readonly value: number | null;
}
export interface BarGroup {
  readonly label: string;
  readonly bars: readonly Bar[];
}
export interface BarOptions {
  /** Whether this panel writes the groups' names at its left (the first of side-by-side panels). */
  readonly groupLabels: boolean;
  /** How a bar's figure is written after it. */
  readonly value: (v: number) => string;
}

export const BAR_H = 9,
  GROUP_GAP = 8;
/** The height a panel of these groups needs. */
export const barsHeight = (groups: readonly BarGroup[]): number =>
  groups.reduce((h, g) => h + g.bars.length * BAR_H + GROUP_GAP, GROUP_GAP);
/** The width the group labels need left of a bar panel. */
export const labelsWidth = (groups: readonly BarGroup[]): number =>
  Math.max(...groups.map((g) => g.label.length)) * CHAR_W + 12;

/** Horizontal bars on a log axis from its low end; each bar's figure written after it. */
export function barPanel(
  b: Box,
  title: string,
  axis: LogAxis,
  groups: readonly BarGroup[],
  opts: BarOptions,
): string[] {
  const px = (v: number) => r1(at(axis, v, b.x, b.x + b.w));
  const out: string[] = [];
  for (const t of axis.ticks) {
    out.push(vline(px(t.value), b.y, b.y + b.h), text(px(t.value), b.y + b.h + 16, t.label, 'text-anchor="middle"'));
  }
  let y = b.y + GROUP_GAP;
  for (const g of groups) {
    if (opts.groupLabels) out.push(text(b.x - 6, y + (g.bars.length * BAR_H) / 2 + 4, g.label, 'text-anchor="end"'));
    for (const bar of g.bars) {
      if (bar.value === null) out.push(text(b.x + 4, y + BAR_H - 1, 'none', `font-size="9" fill="${AXIS}"`));
      else {
        const end = px(bar.value);
        out.push(rect(b.x, y, end - b.x, BAR_H - 1, bar.color));
        out.push(text(end + 3, y + BAR_H - 1, opts.value(bar.value), 'font-size="9"'));
      }
      y += BAR_H;
    }
    y += GROUP_GAP;
  }
  out.push(...frame(b, title));
  return out;
}
