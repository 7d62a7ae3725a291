// docs/benchmarks.md and its charts are exactly what `npm run bench:report` makes of the template and
// the newest results files: a figure typed into the doc, a chart edited by hand, or a results file
// added without regenerating fails here. Also: no dated history headings, every linked results file,
// chart and anchor exists, and every chart reads on a dark page with human axis labels.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import { CHARTS_DIR, DOC, chartFiles, renderFromRepo, type Rendered } from '../bench/report/doc.js';

const ROOT = new URL('../../', import.meta.url);
const DOCS = new URL('docs/', ROOT);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
const headings = (md: string): string[] =>
  md
    .split('\n')
    .filter((l) => /^#{1,6} /.test(l))
    .map((l) => l.replace(/^#+ /, ''));
/** The first line where two texts differ, to say where a stale doc went wrong. */
function firstDifference(a: string, b: string): string {
  const [x, y] = [a.split('\n'), b.split('\n')];
  const i = x.findIndex((line, k) => line !== y[k]);
  const at = i < 0 ? Math.min(x.length, y.length) : i;
  return `line ${at + 1}:\n  committed: ${x[at] ?? '(end)'}\n  generated: ${y[at] ?? '(end)'}`;
}

describe('docs/benchmarks.md is generated from bench/results/', () => {
  let r: Rendered;
  let doc: string;
  before(() => {
    r = renderFromRepo();
    doc = fs.readFileSync(DOC, 'utf8');
  });

  it('equals what the template and the newest results files give, byte for byte', () => {
    assert.ok(
      doc === r.markdown,
      `docs/benchmarks.md is not what \`npm run bench:report\` writes; run it. First difference at ${firstDifference(doc, r.markdown)}`,
    );
  });

  it('has exactly the charts it draws, each byte for byte', () => {
    assert.deepEqual(
      chartFiles(),
      [...r.charts.keys()].sort(),
      'docs/benchmarks/ holds other charts than the generator draws: run `npm run bench:report`',
    );
    for (const [name, svg] of r.charts) {
      const kept = fs.readFileSync(new URL(name, CHARTS_DIR), 'utf8');
      assert.ok(kept === svg, `docs/benchmarks/${name} differs from the generated chart: run \`npm run bench:report\``);
    }
  });

  it('has no placeholder left and no history: no heading names a session or a date', () => {
    assert.ok(!r.markdown.includes('{{'), 'a placeholder was left unfilled');
    const bad = headings(r.markdown).filter((h) => /session/i.test(h) || /\d{4}-\d{2}-\d{2}/.test(h));
    assert.deepEqual(bad, [], 'headings that tell history');
  });

  it('links only results files, charts and anchors that exist', () => {
    const results = [...r.markdown.matchAll(/\]\(\.\.\/(bench\/results\/[^)]+\.json)\)/g)].map((m) => m[1]);
    assert.ok(results.length >= 5, 'the doc links its results files');
    for (const f of results) assert.ok(fs.existsSync(new URL(f, ROOT)), `linked results file ${f} does not exist`);
    for (const m of r.markdown.matchAll(/!\[[^\]]*\]\(benchmarks\/([^)]+)\)/g))
      assert.ok(r.charts.has(m[1]), `image ${m[1]} is not a chart the generator draws`);
    const own = new Set(headings(r.markdown).map(anchor));
    for (const m of r.markdown.matchAll(/\]\(#([^)]+)\)/g)) assert.ok(own.has(m[1]), `link to #${m[1]} has no heading`);
  });

  it('keeps the anchors other docs link to', () => {
    const own = new Set(headings(r.markdown).map(anchor));
    const sources = [
      ...fs
        .readdirSync(DOCS)
        .filter((f) => f.endsWith('.md'))
        .map((f) => new URL(f, DOCS)),
      new URL('README.md', ROOT),
    ];
    for (const file of sources) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/benchmarks\.md#([\w-]+)/g)) {
        assert.ok(
          own.has(m[1]),
          `${file.pathname.split('/').pop()} links to benchmarks.md#${m[1]}, which has no heading`,
        );
      }
    }
  });

  it('draws every chart on an opaque background with axis labels as a person writes them', () => {
    for (const [name, svg] of r.charts) {
      const size = /<svg [^>]*width="(\d+)" height="(\d+)"/.exec(svg);
      assert.ok(size, `${name}: no size`);
      assert.ok(
        svg.includes(`<rect x="0" y="0" width="${size[1]}" height="${size[2]}" fill="#ffffff"/>`),
        `${name}: no opaque background`,
      );
      const labels = [...svg.matchAll(/>([^<>]+)<\/text>/g)].map((m) => m[1]);
      const clumsy = labels.filter((t) => /\b\d+\.0\b|\b1000 |\d{4,} ?(ms|µs|s)\b/.test(t));
      assert.deepEqual(clumsy, [], `${name}: labels like 1000.0 ms`);
    }
  });
});
