import { readFileSync } from 'node:fs';
// chai 6 ships no type declarations and @types/chai is not installed.
// @ts-ignore -- harmless once typings exist
import { expect } from 'chai';
import { parse as parseYaml } from 'yaml';
import { escapeXml, machineToSvg, validateMachine, type MachineDef } from '../../engine/lifecycle/index.js';

function machineOf(def: unknown): MachineDef {
  const r = validateMachine(def);
  if (!r.ok) throw new Error(r.problems.join(' | '));
  return r.machine;
}

const fromFile = (name: string) =>
  machineOf(parseYaml(readFileSync(new URL(`../../../machines/${name}`, import.meta.url), 'utf8')));

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
      machineOf({ meta: { machine_name: 'one', version: '0.0.1' }, states: [{ name: 'only', type: 'initial' }], transitions: [] }),
    );
    expectBalanced(svg);
    expect(svg).to.include('>only</text>');
    expect(svg).to.not.match(/NaN|Infinity/);
  });

  it('escapeXml escapes the five XML specials', () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).to.equal('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
  });
});
