// Every generated doc in the tree is exactly what `npm run docs` would write now: a figure typed into
// docs/benchmarks.md, a chart edited by hand, a results file or a lookup added without regenerating, or
// a reference section edited by hand fails here, naming the file and its first differing line. The
// docs are computed in memory (tools/generated-docs.ts); nothing in the tree is written.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import { ROOT, generatedDirFiles, generatedDocs, type GeneratedDoc } from '../../tools/generated-docs.js';

/** The first line where two texts differ, to say where a stale doc went wrong. */
function firstDifference(a: string, b: string): string {
  const [x, y] = [a.split('\n'), b.split('\n')];
  const i = x.findIndex((line, k) => line !== y[k]);
  const at = i < 0 ? Math.min(x.length, y.length) : i;
  return `line ${at + 1}:\n  committed: ${x[at] ?? '(end)'}\n  generated: ${y[at] ?? '(end)'}`;
}

describe('generated docs equal what `npm run docs` writes', () => {
  let docs: GeneratedDoc[];
  before(() => {
    docs = generatedDocs();
  });

  it('covers the references, the scale-out figures, the benchmarks page and its charts', () => {
    const files = docs.map((d) => d.file);
    for (const f of ['docs/filtering.md', 'docs/resources.md', 'docs/scale-out.md', 'docs/benchmarks.md'])
      assert.ok(files.includes(f), `${f} is not generated`);
    assert.ok(files.filter((f) => f.endsWith('.svg')).length >= 5, 'the charts are generated');
  });

  it('has each generated file byte for byte as committed', () => {
    const stale: string[] = [];
    for (const d of docs) {
      const file = new URL(d.file, ROOT);
      const kept = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
      if (kept === null) stale.push(`${d.file}: missing`);
      else if (kept !== d.text) stale.push(`${d.file}: differs at ${firstDifference(kept, d.text)}`);
    }
    assert.deepEqual(stale, [], `run \`npm run docs\`:\n${stale.join('\n')}`);
  });

  it('has no chart in a generated folder that the generator no longer draws', () => {
    const wanted = new Set(docs.map((d) => d.file));
    const extra = generatedDirFiles().filter((f) => !wanted.has(f));
    assert.deepEqual(extra, [], 'charts no generator draws: run `npm run docs` to remove them');
  });
});
