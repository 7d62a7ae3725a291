// engine/text/regex-classes.ts: a class's ranges read from RE2JS's compiled program are the ranges
// a run of RE2 over every code point finds, for every kind of class the translators write out.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import { classRanges, scannedRanges } from '../../../engine/text/regex-classes.js';

describe('engine/text/regex-classes', function () {
  this.timeout(60000);
  const CLASSES = [
    '\\d',
    '\\D',
    '\\w',
    '\\W',
    '\\s',
    '\\S',
    '\\pL',
    '\\PL',
    '\\p{Greek}',
    '\\p{^Greek}',
    '\\pN',
    '\\p{Lu}',
    '\\p{Zl}',
    '\\p{Any}',
    '\\p{Cs}',
    '[[:alpha:]]',
    '[[:^space:]]',
    '[[:word:]]',
  ];
  for (const cls of CLASSES)
    it(`${cls}: as a run over every code point finds it`, () => {
      expect(classRanges(cls)).to.deep.equal(scannedRanges(cls));
    });
  it('ranges are ascending, disjoint and hold no surrogate', () => {
    for (const cls of CLASSES) {
      const r = classRanges(cls);
      r.forEach(([a, b], i) => {
        expect(a, cls).to.be.at.most(b);
        if (i) expect(a, cls).to.be.greaterThan(r[i - 1][1]);
        expect(b < 0xd800 || a > 0xdfff, cls).to.equal(true);
      });
    }
  });
});
