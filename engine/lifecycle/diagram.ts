// machineToSvg: a self-contained SVG picture of a machine for the web UI.
// Layered layout: a state's column is its BFS depth from the initial state
// (following explicitly-sourced transitions); transitions from "*" come from
// one dashed "any non-terminal state" box below the picture, so they do not
// clutter every state with arrows.
import type { MachineDef, StateDef, TransitionDef } from './types.js';
import { describeGuard } from './guards.js';

const BOX_H = 36;
const ROW_GAP = 90;
const LABEL_CHAR_W = 6.3;
const MARGIN = 40;
const TOP = 70; // room for the title and self-loops
const CHAR_W = 7.5;

export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

interface Box {
  state: StateDef;
  x: number;
  y: number;
  w: number;
}

const boxWidth = (label: string) => Math.max(90, Math.ceil(label.length * CHAR_W) + 28);
const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** Column of each state: BFS depth from the initial state; unreachable states go one column further. */
function columns(def: MachineDef): Map<string, number> {
  const depth = new Map<string, number>([[def.initial_state, 0]]);
  const queue = [def.initial_state];
  while (queue.length > 0) {
    const from = queue.shift() as string;
    for (const t of def.transitions) {
      if (t.source_spec === '*' || !t.source.includes(from) || depth.has(t.dest)) continue;
      depth.set(t.dest, (depth.get(from) as number) + 1);
      queue.push(t.dest);
    }
  }
  const last = Math.max(...depth.values()) + 1;
  for (const s of def.states) if (!depth.has(s.name)) depth.set(s.name, last);
  return depth;
}

/** Gap between columns: wide enough for the longest edge label. */
function columnGap(def: MachineDef): number {
  const longest = Math.max(0, ...def.transitions.map((t) => t.trigger.length + (t.guards.length ? 10 : 0)));
  return Math.min(260, Math.max(110, Math.ceil(longest * LABEL_CHAR_W) + 40));
}

function layout(def: MachineDef): Map<string, Box> {
  const col = columns(def);
  const byCol = new Map<number, StateDef[]>();
  for (const s of def.states) {
    const c = col.get(s.name) as number;
    byCol.set(c, [...(byCol.get(c) ?? []), s]);
  }
  const gap = columnGap(def);
  const boxes = new Map<string, Box>();
  const rowOf = new Map<string, number>();
  let x = MARGIN + 30; // room for the initial-state marker
  for (const c of [...byCol.keys()].sort((a, b) => a - b)) {
    // order each column by the mean row of already-placed predecessors (fewer crossings)
    const weight = (name: string) => {
      const rows = def.transitions
        .filter((t) => t.dest === name && t.source_spec !== '*')
        .flatMap((t) => t.source.filter((s) => rowOf.has(s)).map((s) => rowOf.get(s) as number));
      return rows.length ? rows.reduce((a, b) => a + b, 0) / rows.length : Number.MAX_SAFE_INTEGER;
    };
    const states = [...(byCol.get(c) as StateDef[])]
      .map((s, i) => ({ s, i, w: weight(s.name) }))
      .sort((a, b) => a.w - b.w || a.i - b.i)
      .map((e) => e.s);
    const w = Math.max(...states.map((s) => boxWidth(s.name)));
    states.forEach((state, row) => {
      rowOf.set(state.name, row);
      boxes.set(state.name, { state, x, y: TOP + row * ROW_GAP, w });
    });
    x += w + gap;
  }
  return boxes;
}

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** Grid cell size for looking up taken rectangles near a label (pixels). */
const CELL = 128;

/**
 * Nudges edge labels up or down, a line at a time, until they clear boxes and earlier labels: the
 * nearest free line is taken however far, so no two labels, and no label and box, overlap. Taken
 * rectangles are kept in a grid, so a check looks at its neighbourhood only (1,000 states: see
 * the diagram test).
 */
export class LabelPlacer {
  private readonly grid = new Map<string, Rect[]>();
  /** The lowest label's bottom edge: the picture grows to hold it. */
  bottom = 0;
  constructor(boxes: Iterable<Box>) {
    for (const b of boxes) this.take({ x: b.x, y: b.y, w: b.w, h: BOX_H });
  }
  private cells(r: Rect): string[] {
    const out: string[] = [];
    for (let i = Math.floor(r.x / CELL); i <= Math.floor((r.x + r.w) / CELL); i++)
      for (let j = Math.floor(r.y / CELL); j <= Math.floor((r.y + r.h) / CELL); j++) out.push(`${i},${j}`);
    return out;
  }
  private take(r: Rect): void {
    for (const c of this.cells(r)) {
      const list = this.grid.get(c);
      if (list) list.push(r);
      else this.grid.set(c, [r]);
    }
  }
  private free(r: Rect): boolean {
    return this.cells(r).every((c) => !(this.grid.get(c) ?? []).some((t) => overlaps(t, r)));
  }
  place(cx: number, baseline: number, text: string): number {
    const w = labelWidth(text);
    for (let k = 0; ; k++) {
      const dy = (k % 2 ? -1 : 1) * Math.ceil(k / 2) * 14; // 0, -14, 14, -28, 28, …
      const rect = { x: cx - w / 2, y: baseline + dy - 11, w, h: 14 };
      if (rect.y < TOP / 2) continue; // above: the title's room
      if (this.free(rect)) {
        this.take(rect);
        this.bottom = Math.max(this.bottom, rect.y + rect.h);
        return baseline + dy;
      }
    }
  }
}

/** The width a label's text is given (and must stay within). */
export const labelWidth = (text: string): number => text.length * LABEL_CHAR_W + 4;

function edgeTitle(transitions: TransitionDef[]): string {
  return transitions
    .map((t) =>
      t.guards.length ? `${t.trigger} when ${t.guards.map((g) => describeGuard(g)).join(' and ')}` : t.trigger,
    )
    .join('\n');
}

function edgeGroup(
  ts: TransitionDef[],
  path: string,
  at: { x: number; y: number; labels: LabelPlacer },
  marker: string,
  dashed = false,
): string {
  const triggers = [...new Set(ts.map((t) => t.trigger))];
  const guarded = ts.some((t) => t.guards.length > 0);
  const text = triggers.join(', ') + (guarded ? ' [guarded]' : '');
  const y = at.labels.place(at.x, at.y, text);
  return (
    `<g class="edge${guarded ? ' guarded' : ''}"><title>${escapeXml(edgeTitle(ts))}</title>` +
    `<path d="${path}" fill="none" stroke="#555" stroke-width="1.5"${dashed ? ' stroke-dasharray="5 4"' : ''}` +
    ` marker-end="url(#${marker})"/>` +
    `<text class="edge-label" x="${fmt(at.x)}" y="${fmt(y)}" text-anchor="middle">${escapeXml(text)}</text>` +
    '</g>'
  );
}

/** Path and label position for one source→dest pair of boxes. */
function route(a: Box, b: Box): { path: string; lx: number; ly: number; bottom: number } {
  const ay = a.y + BOX_H / 2;
  const by = b.y + BOX_H / 2;
  if (a === b) {
    const cx = a.x + a.w / 2;
    const path =
      `M ${fmt(cx - 12)} ${a.y} ` + `C ${fmt(cx - 30)} ${a.y - 40} ${fmt(cx + 30)} ${a.y - 40} ${fmt(cx + 12)} ${a.y}`;
    return { path, lx: cx, ly: a.y - 34, bottom: a.y + BOX_H };
  }
  if (a.x < b.x) {
    const x1 = a.x + a.w;
    const x2 = b.x;
    return {
      path: `M ${fmt(x1)} ${fmt(ay)} L ${fmt(x2)} ${fmt(by)}`,
      lx: (x1 + x2) / 2,
      ly: (ay + by) / 2 - 6,
      bottom: 0,
    };
  }
  if (a.x > b.x) {
    // backwards: curve underneath both boxes
    const x1 = a.x + a.w / 2;
    const x2 = b.x + b.w / 2;
    const low = Math.max(a.y, b.y) + BOX_H + 45;
    const path = `M ${fmt(x1)} ${a.y + BOX_H} Q ${fmt((x1 + x2) / 2)} ${low} ${fmt(x2)} ${b.y + BOX_H}`;
    return { path, lx: (x1 + x2) / 2, ly: low - 18, bottom: low };
  }
  // same column: downward edges bulge right, upward ones left, so a pair
  // of opposite edges does not draw on top of itself
  const right = ay < by;
  const x = right ? a.x + a.w : a.x;
  const out = right ? x + 60 : x - 60;
  const path = `M ${fmt(x)} ${fmt(ay)} Q ${fmt(out)} ${fmt((ay + by) / 2)} ${fmt(x)} ${fmt(by)}`;
  return { path, lx: right ? out - 20 : out + 20, ly: (ay + by) / 2 + 4, bottom: Math.max(ay, by) };
}

function stateShape(box: Box, marker: string): string {
  const { state, x, y, w } = box;
  const fill = state.type === 'initial' ? '#e8f5e9' : state.type === 'terminal' ? '#eeeeee' : '#e3f2fd';
  const strokeWidth = state.type === 'initial' ? 2.5 : 1.5;
  const title = `${state.name} (${state.type})${state.description ? `: ${state.description}` : ''}`;
  let out = `<g class="state state-${state.type}"><title>${escapeXml(title)}</title>`;
  out +=
    `<rect x="${x}" y="${y}" width="${w}" height="${BOX_H}" rx="10" fill="${fill}" ` +
    `stroke="#333" stroke-width="${strokeWidth}"/>`;
  if (state.type === 'terminal') {
    // double border marks "no way out"
    out +=
      `<rect x="${x + 4}" y="${y + 4}" width="${w - 8}" height="${BOX_H - 8}" rx="7" ` +
      `fill="none" stroke="#333" stroke-width="1"/>`;
  }
  if (state.type === 'initial') {
    // UML-style start dot with an arrow into the initial state
    const cy = y + BOX_H / 2;
    out += `<circle cx="${x - 26}" cy="${cy}" r="6" fill="#333"/>`;
    out += `<path d="M ${x - 20} ${cy} L ${x} ${cy}" stroke="#333" stroke-width="1.5" marker-end="url(#${marker})"/>`;
  }
  out +=
    `<text x="${fmt(x + w / 2)}" y="${y + BOX_H / 2 + 5}" ` +
    `text-anchor="middle">${escapeXml(state.name)}</text></g>`;
  return out;
}

export function machineToSvg(def: MachineDef): string {
  const boxes = layout(def);
  const marker = `lc-arrow-${def.meta.machine_name}-${def.meta.version.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const parts: string[] = [];
  const labels = new LabelPlacer(boxes.values());
  let maxX = Math.max(...[...boxes.values()].map((b) => b.x + b.w)) + 80;
  let maxY = Math.max(...[...boxes.values()].map((b) => b.y + BOX_H));

  // explicit-source transitions grouped per (from, to) so parallel triggers share one arrow
  const groups = new Map<string, TransitionDef[]>();
  for (const t of def.transitions) {
    if (t.source_spec === '*') continue;
    for (const from of t.source) {
      const key = `${from}\u0000${t.dest}`;
      groups.set(key, [...(groups.get(key) ?? []), t]);
    }
  }
  for (const [key, ts] of groups) {
    const [from, to] = key.split('\u0000');
    const r = route(boxes.get(from) as Box, boxes.get(to) as Box);
    maxY = Math.max(maxY, r.bottom);
    parts.push(edgeGroup(ts, r.path, { x: r.lx, y: r.ly, labels }, marker));
  }

  const wildcard = def.transitions.filter((t) => t.source_spec === '*');
  if (wildcard.length > 0) {
    const anyText = 'any non-terminal state';
    const any: Box = {
      state: { name: anyText, type: 'stable' },
      x: MARGIN + 30,
      y: Math.max(maxY, labels.bottom) + 70,
      w: boxWidth(anyText),
    };
    parts.push(
      `<g class="state state-any"><rect x="${any.x}" y="${any.y}" width="${any.w}" height="${BOX_H}" rx="10" ` +
        `fill="#fff" stroke="#777" stroke-dasharray="5 4"/>` +
        `<text x="${fmt(any.x + any.w / 2)}" y="${any.y + BOX_H / 2 + 5}" ` +
        `text-anchor="middle" fill="#555">${escapeXml(anyText)}</text></g>`,
    );
    const byDest = new Map<string, TransitionDef[]>();
    for (const t of wildcard) byDest.set(t.dest, [...(byDest.get(t.dest) ?? []), t]);
    for (const [dest, ts] of byDest) {
      const b = boxes.get(dest) as Box;
      const x1 = any.x + any.w / 2;
      const x2 = b.x + b.w / 2;
      const path = `M ${fmt(x1)} ${any.y} L ${fmt(x2)} ${b.y + BOX_H}`;
      parts.push(edgeGroup(ts, path, { x: (x1 + x2) / 2, y: (any.y + b.y + BOX_H) / 2, labels }, marker, true));
    }
    maxX = Math.max(maxX, any.x + any.w + MARGIN);
    maxY = any.y + BOX_H;
  }

  const states = [...boxes.values()].map((b) => stateShape(b, marker));
  maxY = Math.max(maxY, labels.bottom);
  const width = Math.ceil(maxX + MARGIN);
  const height = Math.ceil(maxY + MARGIN);
  const caption = `${def.meta.machine_name} v${def.meta.version}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
      `font-family="sans-serif" font-size="13">`,
    `<title>${escapeXml(caption)}</title>`,
    `<defs><marker id="${marker}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" ` +
      `orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#555"/></marker>`,
    `<style>.edge-label{font-size:11px;fill:#222;paint-order:stroke;` +
      `stroke:#fff;stroke-width:3px;stroke-linejoin:round}</style></defs>`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${MARGIN}" y="28" font-size="15" font-weight="bold">${escapeXml(caption)}</text>`,
    ...parts,
    ...states, // drawn last so boxes sit on top of arrow ends
    '</svg>',
  ].join('\n');
}
