// A regex's trigram query (the literal fragments every match holds) never drops a match: on random
// patterns (literals, escapes, classes, anchors, groups, alternation, repeats, \Q…\E, inline flags,
// case-insensitive) and random texts, every text the regex matches satisfies the query; and a
// memory store answering `re`/`ire` through its trigram index gives the plain regex's rows.
import { expect } from 'chai';
import fc from 'fast-check';
import * as N from '../../../engine/plan/nodes.js';
import { regexGrams, type GramQuery } from '../../../engine/memory/regex-grams.js';
import { TrigramIndex } from '../../../engine/memory/trigram-index.js';
import { compileRegex } from '../../../engine/text/regex.js';
import { MemoryStorage } from '../../../storage/memory/memory-storage.js';
import type { MemoryExplain } from '../../../engine/memory/evaluate.js';

/** The query holds for a text: some branch's trigrams are all in the text's (lower-cased) trigrams. */
function holds(q: GramQuery, text: string): boolean {
  if (q === null) return true;
  const grams = TrigramIndex.gramsOf(text);
  return q.some((branch) => branch.every((g) => grams.has(g)));
}

/** A piece of pattern and a text it matches (when it has no anchor in the way). */
type Piece = readonly [pattern: string, sample: string];

// Letters whose case folds reach outside ASCII (s: ſ, k: the Kelvin sign) and their partners.
const CHARS = ['a', 'b', 'c', 'd', 'e', 's', 'S', 'k', 'K', 'E', '-', ' ', '1', '2', 'é', 'ſ', 'K', 'Σ', '_', '#'];
const lit: fc.Arbitrary<Piece> = fc.constantFrom(...CHARS).map((c) => [c, c]);
const escaped: fc.Arbitrary<Piece> = fc
  .constantFrom('.', '*', '(', ')', '|', '$', '{', '}', '\\', '_', '#', '[', ']', '+', '?', '^', '-')
  .map((c) => ['\\' + c, c]);
const classy: fc.Arbitrary<Piece> = fc.constantFrom<Piece>(
  ['[a-c]', 'b'],
  ['[^x]', 'a'],
  ['[[:alpha:]]', 'Q'],
  ['[[:digit:]abc]', 'c'],
  ['[]a]', ']'],
  ['[^]a]', 'z'],
  ['[\\]s(|]', '|'],
  ['[\\p{Greek}k]', 'α'],
  ['\\d', '7'],
  ['\\w', 's'],
  ['\\s', ' '],
  ['\\S', 'x'],
  ['.', 'z'],
  ['\\x41', 'A'],
  ['\\x{42}', 'B'],
  ['\\101', 'A'],
  ['\\pL', 'k'],
  ['\\PL', '1'],
  ['\\p{Greek}', 'α'],
  ['\\p{^Greek}', 'a'],
  ['\\t', '\t'],
  ['\\n', '\n'],
  ['{', '{'],
  ['}', '}'],
  [']', ']'],
  ['^', ''],
  ['$', ''],
  ['\\b', ''],
  ['\\B', ''],
  ['\\A', ''],
  ['\\z', ''],
);
const quoted: fc.Arbitrary<Piece> = fc
  .array(fc.constantFrom('a', 'b', 'c', '(', '|', ')', 'sS', '.', '[', 'ſ', '*'), { minLength: 1, maxLength: 5 })
  .map((cs) => ['\\Q' + cs.join('') + '\\E', cs.join('')]);
const REPEATS: readonly [string, number][] = [
  ['*', 1],
  ['+', 2],
  ['?', 1],
  ['{2}', 2],
  ['{0,1}', 0],
  ['{1,3}', 3],
  ['{2,}', 2],
  ['*?', 0],
  ['+?', 1],
  ['??', 1],
];

const pieces = fc.letrec<{ piece: Piece; seq: Piece; alt: Piece }>((tie) => ({
  piece: fc.oneof(
    { depthSize: 'small' },
    lit,
    lit,
    lit,
    escaped,
    classy,
    quoted,
    fc.tuple(tie('piece'), fc.constantFrom(...REPEATS)).map(([[p, s], [r, n]]): Piece => [p + r, s.repeat(n)]),
    fc
      .tuple(tie('alt'), fc.constantFrom('(', '(?:', '(?i:', '(?P<g>', '(?s:'))
      .map(([[p, s], open]): Piece => [open + p + ')', s]),
  ),
  seq: fc
    .array(tie('piece'), { minLength: 1, maxLength: 6 })
    .map((ps): Piece => [ps.map((p) => p[0]).join(''), ps.map((p) => p[1]).join('')]),
  alt: fc
    .tuple(fc.array(tie('seq'), { minLength: 1, maxLength: 3 }), fc.nat())
    .map(([ss, k]): Piece => [ss.map((s) => s[0]).join('|'), ss[k % ss.length][1]]),
}));

const patternArb = fc
  .tuple(pieces.alt, fc.constantFrom('', '', '', '(?i)', '(?m)', '(?i)x|'))
  .map(([[p, s], flags]): Piece => [flags + p, s]);
const noise = fc.string({ unit: fc.constantFrom(...CHARS, 'A', 'B', 'C', 'x', 'α', '\n'), maxLength: 8 });
/** Case changes the text may go through before the match (a case-insensitive search still matches). */
const recase = fc.constantFrom(
  (t: string) => t,
  (t: string) => t.toUpperCase(),
  (t: string) => t.toLowerCase(),
  (t: string) => t.replace(/s/g, 'ſ').replace(/k/g, 'K'),
);

describe('regex trigram queries', () => {
  it('read the literal fragments every match must hold', () => {
    const q = (p: string, ci = false) => regexGrams(p, ci);
    expect(q('core.*sw')).to.deep.equal([['cor', 'ore']]);
    expect(q('^edge-\\d+')).to.deep.equal([['edg', 'dge', 'ge-']]);
    expect(q('circuit 1[0-4]0$')).to.deep.equal([['cir', 'irc', 'rcu', 'cui', 'uit', 'it ', 't 1']]);
    expect(q('(abc|xyz)9')).to.deep.equal([['abc'], ['xyz']]);
    expect(q('CORE', true)).to.deep.equal([['cor', 'ore']]);
    // No literal of three chars every match holds: no query (the rows are scanned).
    expect(q('abc|x')).to.equal(null);
    expect(q('ab?c')).to.equal(null);
    expect(q('a.b.c')).to.equal(null);
    expect(q('(abc)?')).to.equal(null);
    expect(q('\\p{Greek}reek')).to.deep.equal([['ree', 'eek']]);
    // Case-insensitively `s` also matches `ſ`: it ends a fragment.
    expect(q('classic', true)).to.deep.equal([['cla']]);
    expect(q('(?i)class')).to.deep.equal([['cla']]);
    expect(q('glass')).to.deep.equal([['gla', 'las', 'ass']]);
  });

  it('hold for every text the regex matches (property)', () => {
    fc.assert(
      fc.property(
        patternArb,
        fc.boolean(),
        noise,
        noise,
        recase,
        noise,
        ([pattern, sample], ci, pre, post, rc, other) => {
          const re = compileRegex(pattern, ci);
          fc.pre(typeof re !== 'string');
          if (typeof re === 'string') return;
          const q = regexGrams(pattern, ci);
          for (const text of [pre + sample + post, rc(pre + sample + post), other, sample])
            if (re.test(text))
              expect(holds(q, text), `${pattern} (ci ${ci}) on ${JSON.stringify(text)}`).to.equal(true);
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 3000) },
    );
  });

  it('give a memory store the rows the plain regex matches (property)', async () => {
    const now = '2026-01-01T00:00:00.000Z';
    const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(patternArb, noise, noise, recase), { minLength: 1, maxLength: 40 }),
        fc.array(fc.tuple(patternArb, fc.boolean()), { minLength: 1, maxLength: 6 }),
        async (texts, queries) => {
          const store = new MemoryStorage(null);
          const descriptions = texts.map(([[, s], pre, post, rc]) => rc(pre + s + post));
          descriptions.forEach((description, i) =>
            store.table('prefix').insert({
              id: id(i),
              created: now,
              last_updated: now,
              prefix: `10.0.${i}.0/24`,
              prefix_length: 24,
              family: 4,
              status: 'active',
              site: null,
              tags: [],
              description,
              custom_fields: {},
            }),
          );
          for (const [[pattern], ci] of queries) {
            const re = compileRegex(pattern, ci);
            if (typeof re === 'string') continue;
            const plan = N.cmp('description', 'string', 'regex', ci, [pattern]);
            const got = await store.find('prefix', plan, { limit: 1e6, offset: 0, ordering: [] });
            const want = descriptions.flatMap((d, i) => (re.test(d) ? [id(i)] : []));
            expect(got.rows.map((r) => r.id).sort(), pattern).to.deep.equal(want);
          }
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 200) },
    );
  });

  it('narrow the rows through the trigram index', async () => {
    const store = new MemoryStorage(null);
    const now = '2026-01-01T00:00:00.000Z';
    const words = ['core switch', 'edge-12', 'Edge-x', 'lab', 'CORE router sw', 'spare'];
    for (let i = 0; i < 60; i++)
      store.table('prefix').insert({
        id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        created: now,
        last_updated: now,
        prefix: `10.1.${i}.0/24`,
        prefix_length: 24,
        family: 4,
        status: 'active',
        site: null,
        tags: [],
        description: words[i % words.length],
        custom_fields: {},
      });
    const explain = async (pattern: string, ci: boolean) =>
      (await store.explain('prefix', N.cmp('description', 'string', 'regex', ci, [pattern]))) as MemoryExplain;
    const ex = await explain('core.*sw', true);
    expect(ex.strategy).to.equal('trigram(description)');
    expect([ex.candidates, ex.matched]).to.deep.equal([20, 20]);
    const edge = await explain('^edge-\\d+', false);
    expect([edge.strategy, edge.candidates, edge.matched]).to.deep.equal(['trigram(description)', 20, 10]);
    const plain = await explain('^e.g', false);
    expect(plain.strategy).to.equal('scan');
  });
});
