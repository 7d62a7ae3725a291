// What docs/benchmarks.md is made of holds together: no dated history headings, every linked results
// file, chart and anchor exists, and every chart reads on a dark page with human axis labels. That the
// committed doc and charts are exactly what `npm run docs` writes is test/docs/generated-docs.test.ts.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import { renderFromRepo, type Rendered } from '../../bench/report/doc.js';
import { REPO_URL } from '../support/paths.js';

const ROOT = new URL('', REPO_URL);
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

describe('docs/benchmarks.md is generated from bench/results/', () => {
  let r: Rendered;
  before(() => {
    r = renderFromRepo();
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
