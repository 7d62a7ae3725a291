import { readFileSync } from 'node:fs';
// chai 6 ships no type declarations and @types/chai is not installed.
// @ts-ignore -- harmless once typings exist
import { expect } from 'chai';
import { parse as parseYaml } from 'yaml';
import { escapeXml, machineToSvg, validateMachine, type MachineDef } from '../../../engine/lifecycle/index.js';
import { labelWidth } from '../../../engine/lifecycle/diagram.js';
import { REPO_URL } from '../../support/paths.js';

function machineOf(def: unknown): MachineDef {
  const r = validateMachine(def);
  if (!r.ok) throw new Error(r.problems.join(' | '));
  return r.machine;
}

const fromFile = (name: string) => machineOf(parseYaml(readFileSync(new URL(`machines/${name}`, REPO_URL), 'utf8')));

/** Crude well-formedness check: tags balance and nothing unescaped sneaks into text. */
function expectBalanced(svg: string): void {
  const stack: string[] = [];
  for (const m of svg.matchAll(/<(\/?)([a-zA-Z]+)[^>]*?(\/?)>/g)) {
    if (m[3] === '/') continue;
    if (m[1] === '/') expect(stack.pop(), `closing ${m[2]}`).to.equal(m[2]);
    else stack.push(m[2]);
  }
  expect(stack).to.deep.equal([]);
}

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
  what: string;
}

/** Edge labels and state boxes of a picture, as the rectangles they take. */
function rectsOf(svg: string): { labels: Rect[]; boxes: Rect[]; width: number; height: number } {
  const unxml = (t: string) =>
    t
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  const labels = [...svg.matchAll(/<text class="edge-label" x="([\d.-]+)" y="([\d.-]+)"[^>]*>([^<]*)<\/text>/g)].map(
    (m) => {
      const w = labelWidth(unxml(m[3]));
      return { x: Number(m[1]) - w / 2, y: Number(m[2]) - 11, w, h: 14, what: `label ${m[3]}` };
    },
  );
  const boxes = [...svg.matchAll(/<rect x="([\d.-]+)" y="([\d.-]+)" width="([\d.]+)" height="([\d.]+)" rx="10"/g)].map(
    (m) => ({ x: Number(m[1]), y: Number(m[2]), w: Number(m[3]), h: Number(m[4]), what: `box at ${m[1]},${m[2]}` }),
  );
  const [, width, height] = /<svg [^>]*width="(\d+)" height="(\d+)"/.exec(svg)!.map(Number);
  return { labels, boxes, width, height };
}

const overlap = (a: Rect, b: Rect) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** No label overlaps another label or a state box, and every label is inside the picture. */
function expectNoOverlaps(svg: string): number {
  const { labels, boxes, width, height } = rectsOf(svg);
  const cell = (r: Rect) => `${Math.floor(r.x / 200)},${Math.floor(r.y / 200)}`;
  const near = new Map<string, Rect[]>();
  for (const r of [...boxes, ...labels])
    for (const dx of [-1, 0, 1])
      for (const dy of [-1, 0, 1]) {
        const k = `${Math.floor(r.x / 200) + dx},${Math.floor(r.y / 200) + dy}`;
        near.set(k, [...(near.get(k) ?? []), r]);
      }
  for (const l of labels) {
    expect(
      l.x >= 0 && l.y >= 0 && l.x + l.w <= width && l.y + l.h <= height,
      `${l.what} inside ${width}x${height}`,
    ).to.equal(true);
    for (const o of near.get(cell(l)) ?? [])
      if (o !== l) expect(overlap(l, o), `${l.what} overlaps ${o.what}`).to.equal(false);
  }
  return labels.length;
}

/** A machine of n states: a chain, a guarded jump from every state and a way back from every fifth. */
function bigMachine(n: number): MachineDef {
  const states = Array.from({ length: n }, (_, i) => ({
    name: `state_${i}`,
    type: i === 0 ? 'initial' : i === n - 1 ? 'terminal' : 'stable',
  }));
  const transitions: unknown[] = [];
  for (let i = 0; i < n - 1; i++) {
    transitions.push({ trigger: 'next', source: `state_${i}`, dest: `state_${i + 1}` });
    transitions.push({
      trigger: `jump_${i}`,
      source: `state_${i}`,
      dest: `state_${(i * 7 + 3) % (n - 1)}`,
      guards: [{ field: 'ok', op: 'eq', value: true }],
    });
    if (i % 5 === 4) transitions.push({ trigger: 'undo', source: `state_${i}`, dest: `state_${i - 4}` });
  }
  transitions.push({ trigger: 'abort', source: '*', dest: `state_${n - 1}` });
  const r = validateMachine({ meta: { machine_name: 'big', version: '1.0.0' }, states, transitions }, { maxStates: n });
  if (!r.ok) throw new Error(r.problems.join(' | '));
  return r.machine;
}

describe('lifecycle diagram: labels never overlap', () => {
  for (const file of ['device_lifecycle.yaml', 'device_lifecycle-1.1.0.yaml', 'order_flow.yaml']) {
    it(`in ${file}`, () => {
      expect(expectNoOverlaps(machineToSvg(fromFile(file)))).to.be.greaterThan(5);
    });
  }

  it('in a machine of 1,000 states, laid out in bounded time', function () {
    this.timeout(120_000);
    const m = bigMachine(1000);
    const t0 = performance.now();
    const svg = machineToSvg(m);
    const ms = performance.now() - t0;
    console.log(
      `      diagram of 1,000 states, ${m.transitions.length} transitions: laid out and drawn in ${ms.toFixed(0)} ms`,
    );
    expect(ms).to.be.below(Number(process.env.DIAGRAM_BOUND_MS ?? 20_000));
    expect(expectNoOverlaps(svg)).to.be.greaterThan(1000);
  });
});

describe('lifecycle diagram: machineToSvg', () => {
  for (const file of ['device_lifecycle.yaml', 'order_flow.yaml']) {
    it(`draws every state and trigger of ${file} as a balanced SVG document`, () => {
      const m = fromFile(file);
      const svg = machineToSvg(m);
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).to.equal(true);
      expect(svg.trimEnd().endsWith('</svg>')).to.equal(true);
      expectBalanced(svg);
      for (const s of m.states) expect(svg).to.include(`>${s.name}</text>`);
      for (const t of m.transitions) expect(svg).to.include(t.trigger);
      expect(svg).to.not.match(/NaN|undefined|Infinity/);
    });
  }

  const tiny = () =>
    machineOf({
      meta: { machine_name: 'tiny', version: '1.0.0-rc.1', description: 'x' },
      states: [
        { name: 'a', type: 'initial', description: 'starts <here> & "there"' },
        { name: 'b', type: 'stable' },
        { name: 'z', type: 'terminal' },
        { name: 'orphan', type: 'stable' },
      ],
      transitions: [
        { trigger: 'go', source: 'a', dest: 'b', guards: [{ field: 'n', op: 'matches', value: '<&>' }] },
        { trigger: 'back', source: 'b', dest: 'a' },
        { trigger: 'stay', source: 'b', dest: 'b' },
        { trigger: 'kill', source: '*', dest: 'z' },
      ],
    });

  it('marks initial and terminal states differently from stable ones', () => {
    const svg = machineToSvg(tiny());
    expect(svg.match(/class="state state-initial"/g)).to.have.length(1);
    expect(svg.match(/class="state state-terminal"/g)).to.have.length(1);
    expect(svg.match(/class="state state-stable"/g)).to.have.length(2);
    expect(svg).to.include('<circle'); // start marker before the initial state
  });

  it('XML-escapes descriptions and guard text', () => {
    const svg = machineToSvg(tiny());
    expect(svg).to.include('starts &lt;here&gt; &amp; &quot;there&quot;');
    expect(svg).to.include('&quot;&lt;&amp;&gt;&quot;');
    expect(svg).to.not.include('<here>');
    expectBalanced(svg);
  });

  it('draws "*" transitions from a single "any non-terminal state" box', () => {
    const svg = machineToSvg(tiny());
    expect(svg.match(/any non-terminal state/g)).to.have.length(1);
    expect(svg).to.include('kill');
  });

  it('labels guarded transitions and unreachable states still get a box', () => {
    const svg = machineToSvg(tiny());
    expect(svg).to.include('go [guarded]');
    expect(svg).to.include('>orphan</text>');
  });

  it('is deterministic', () => {
    expect(machineToSvg(tiny())).to.equal(machineToSvg(tiny()));
  });

  it('draws a machine with a single state and no transitions', () => {
    const svg = machineToSvg(
      machineOf({
        meta: { machine_name: 'one', version: '0.0.1' },
        states: [{ name: 'only', type: 'initial' }],
        transitions: [],
      }),
    );
    expectBalanced(svg);
    expect(svg).to.include('>only</text>');
    expect(svg).to.not.match(/NaN|Infinity/);
  });

  it('escapeXml escapes the five XML specials', () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).to.equal('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
  });
});
