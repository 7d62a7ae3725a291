// chai 6 ships no type declarations and @types/chai is not installed.
// @ts-ignore -- harmless once typings exist
import { expect } from 'chai';
import fc from 'fast-check';
import { describeGuard, evaluateGuard, evaluateGuards, type Guard } from '../../../engine/lifecycle/index.js';

const passes = (guard: Guard, ctx: Record<string, unknown>) => evaluateGuard(guard, ctx).pass;

function failure(guard: Guard, ctx: Record<string, unknown>): { failed: Guard; description: string } {
  const r = evaluateGuard(guard, ctx);
  if (r.pass) throw new Error('expected the guard to fail');
  return r;
}

// [guard, context, expected pass]
type Case = [Guard, Record<string, unknown>, boolean];

function table(title: string, cases: Case[]): void {
  describe(title, () => {
    for (const [guard, ctx, expected] of cases) {
      it(`${describeGuard(guard)} on ${JSON.stringify(ctx)} is ${expected ? 'true' : 'false'}`, () => {
        expect(passes(guard, ctx)).to.equal(expected);
      });
    }
  });
}

describe('lifecycle guards', () => {
  table('eq / ne compare JSON values deeply', [
    [{ field: 'a', op: 'eq', value: 1 }, { a: 1 }, true],
    [{ field: 'a', op: 'eq', value: 1 }, { a: 2 }, false],
    [{ field: 'a', op: 'eq', value: 1 }, { a: '1' }, false],
    [{ field: 'a', op: 'eq', value: 'x' }, { a: 'x' }, true],
    [{ field: 'a', op: 'eq', value: true }, { a: 1 }, false],
    [{ field: 'a', op: 'eq', value: null }, { a: null }, true],
    [{ field: 'a', op: 'eq', value: null }, {}, false],
    [{ field: 'a', op: 'eq', value: { x: 1, y: [1, 2] } }, { a: { y: [1, 2], x: 1 } }, true],
    [{ field: 'a', op: 'eq', value: { x: 1 } }, { a: { x: 1, y: 2 } }, false],
    [{ field: 'a', op: 'eq', value: [1, 2] }, { a: [2, 1] }, false],
    [{ field: 'a', op: 'eq', value: [] }, { a: {} }, false],
    [{ field: 'a', op: 'ne', value: 1 }, { a: 2 }, true],
    [{ field: 'a', op: 'ne', value: 1 }, { a: 1 }, false],
    [{ field: 'a', op: 'ne', value: 1 }, {}, true],
    [{ field: 'a', op: 'ne', value: { x: [1] } }, { a: { x: [1] } }, false],
  ]);

  table('gt / gte / lt / lte: numbers with numbers, strings lexicographically, anything else false', [
    [{ field: 'n', op: 'gt', value: 5 }, { n: 6 }, true],
    [{ field: 'n', op: 'gt', value: 5 }, { n: 5 }, false],
    [{ field: 'n', op: 'gte', value: 5 }, { n: 5 }, true],
    [{ field: 'n', op: 'gte', value: 5 }, { n: 4.999 }, false],
    [{ field: 'n', op: 'lt', value: 0 }, { n: -1 }, true],
    [{ field: 'n', op: 'lt', value: 0 }, { n: 0 }, false],
    [{ field: 'n', op: 'lte', value: 1000 }, { n: 1000 }, true],
    [{ field: 'n', op: 'lte', value: 1000 }, { n: 1500 }, false],
    [{ field: 's', op: 'gt', value: 'a' }, { s: 'b' }, true],
    [{ field: 's', op: 'lt', value: '9' }, { s: '10' }, true], // lexicographic, not numeric
    [{ field: 's', op: 'gte', value: 'abc' }, { s: 'abc' }, true],
    [{ field: 's', op: 'lte', value: 'Z' }, { s: 'a' }, false], // code-unit order: 'a' > 'Z'
    [{ field: 'n', op: 'gt', value: 5 }, { n: '10' }, false],
    [{ field: 'n', op: 'lt', value: 5 }, { n: '1' }, false],
    [{ field: 's', op: 'gt', value: 'a' }, { s: 1 }, false],
    [{ field: 'n', op: 'gte', value: 0 }, { n: null }, false],
    [{ field: 'n', op: 'gte', value: 0 }, { n: true }, false],
    [{ field: 'n', op: 'lte', value: 0 }, { n: [] }, false],
    [{ field: 'n', op: 'lte', value: 10 }, {}, false],
    [{ field: 'n', op: 'gte', value: 10 }, {}, false],
    [{ field: 'n', op: 'lt', value: 10 }, { n: NaN }, false],
  ]);

  table('in / not_in test membership by deep equality', [
    [{ field: 'c', op: 'in', value: ['EUR', 'USD'] }, { c: 'EUR' }, true],
    [{ field: 'c', op: 'in', value: ['EUR', 'USD'] }, { c: 'eur' }, false],
    [{ field: 'c', op: 'in', value: [1, 2] }, { c: '1' }, false],
    [{ field: 'c', op: 'in', value: [[1], { a: 1 }] }, { c: { a: 1 } }, true],
    [{ field: 'c', op: 'in', value: [] }, { c: 1 }, false],
    [{ field: 'c', op: 'in', value: [null] }, {}, false],
    [{ field: 'c', op: 'not_in', value: ['EUR'] }, { c: 'USD' }, true],
    [{ field: 'c', op: 'not_in', value: ['EUR'] }, { c: 'EUR' }, false],
    [{ field: 'c', op: 'not_in', value: ['EUR'] }, {}, true],
  ]);

  table('exists: present and not null; value false inverts', [
    [{ field: 'serial', op: 'exists' }, { serial: 'X1' }, true],
    [{ field: 'serial', op: 'exists' }, { serial: '' }, true],
    [{ field: 'serial', op: 'exists' }, { serial: 0 }, true],
    [{ field: 'serial', op: 'exists' }, { serial: false }, true],
    [{ field: 'serial', op: 'exists' }, { serial: null }, false],
    [{ field: 'serial', op: 'exists' }, {}, false],
    [{ field: 'serial', op: 'exists', value: true }, { serial: 'X1' }, true],
    [{ field: 'serial', op: 'exists', value: false }, {}, true],
    [{ field: 'serial', op: 'exists', value: false }, { serial: null }, true],
    [{ field: 'serial', op: 'exists', value: false }, { serial: 'X1' }, false],
  ]);

  table('matches: RE2 pattern searched anywhere in a string value', [
    [{ field: 's', op: 'matches', value: 'b' }, { s: 'abc' }, true],
    [{ field: 's', op: 'matches', value: '^b' }, { s: 'abc' }, false],
    [{ field: 's', op: 'matches', value: '^RMA-[0-9]{6}$' }, { s: 'RMA-123456' }, true],
    [{ field: 's', op: 'matches', value: '^RMA-[0-9]{6}$' }, { s: 'RMA-12345' }, false],
    [{ field: 's', op: 'matches', value: '(?i)^chg' }, { s: 'CHG42' }, true],
    [{ field: 's', op: 'matches', value: '\\d+' }, { s: 'no digits' }, false],
    [{ field: 's', op: 'matches', value: '1' }, { s: 1 }, false],
    [{ field: 's', op: 'matches', value: '.*' }, {}, false],
    [{ field: 's', op: 'matches', value: '.*' }, { s: null }, false],
    [{ field: 's', op: 'matches', value: 'é' }, { s: 'café' }, true],
  ]);

  table('dotted paths follow own properties and array indexes', [
    [{ field: 'order.total', op: 'gt', value: 10 }, { order: { total: 11 } }, true],
    [{ field: 'order.total', op: 'gt', value: 10 }, { order: 11 }, false],
    [{ field: 'order.total', op: 'exists' }, { order: null }, false],
    [{ field: 'a.b.c', op: 'eq', value: 'deep' }, { a: { b: { c: 'deep' } } }, true],
    [{ field: 'items.1.sku', op: 'eq', value: 'B' }, { items: [{ sku: 'A' }, { sku: 'B' }] }, true],
    [{ field: 'items.2.sku', op: 'exists' }, { items: [{ sku: 'A' }] }, false],
    [{ field: 'items.01', op: 'exists' }, { items: [1, 2] }, false],
    [{ field: 'items.length', op: 'eq', value: 2 }, { items: [1, 2] }, false],
    [{ field: 'name.length', op: 'eq', value: 3 }, { name: 'abc' }, false],
    [{ field: 'toString', op: 'exists' }, {}, false],
    [{ field: 'hasOwnProperty', op: 'exists' }, { a: 1 }, false],
    [{ field: 'a.b', op: 'eq', value: 1 }, { 'a.b': 1 }, false],
  ]);

  describe('forbidden path segments at evaluation time (defence in depth)', () => {
    it('treats __proto__ / constructor / prototype paths as missing even on unvalidated guards', () => {
      const ctx = JSON.parse('{"__proto__": {"x": 1}, "constructor": {"name": "Object"}, "prototype": 1}');
      expect(passes({ field: '__proto__.x', op: 'eq', value: 1 }, ctx)).to.equal(false);
      expect(passes({ field: 'constructor.name', op: 'eq', value: 'Object' }, ctx)).to.equal(false);
      expect(passes({ field: 'prototype', op: 'exists' }, ctx)).to.equal(false);
      expect(passes({ field: 'constructor', op: 'exists' }, {})).to.equal(false);
    });
  });

  table('combinators all / any / not', [
    [
      {
        all: [
          { field: 'a', op: 'eq', value: 1 },
          { field: 'b', op: 'eq', value: 2 },
        ],
      },
      { a: 1, b: 2 },
      true,
    ],
    [
      {
        all: [
          { field: 'a', op: 'eq', value: 1 },
          { field: 'b', op: 'eq', value: 2 },
        ],
      },
      { a: 1, b: 3 },
      false,
    ],
    [
      {
        any: [
          { field: 'a', op: 'eq', value: 1 },
          { field: 'b', op: 'eq', value: 2 },
        ],
      },
      { a: 0, b: 2 },
      true,
    ],
    [
      {
        any: [
          { field: 'a', op: 'eq', value: 1 },
          { field: 'b', op: 'eq', value: 2 },
        ],
      },
      { a: 0, b: 0 },
      false,
    ],
    [{ not: { field: 'a', op: 'exists' } }, {}, true],
    [{ not: { field: 'a', op: 'exists' } }, { a: 1 }, false],
    [{ not: { not: { field: 'a', op: 'exists' } } }, { a: 1 }, true],
    [{ all: [{ any: [{ field: 'x', op: 'gt', value: 5 }, { not: { field: 'y', op: 'exists' } }] }] }, { x: 1 }, true],
    [
      { all: [{ any: [{ field: 'x', op: 'gt', value: 5 }, { not: { field: 'y', op: 'exists' } }] }] },
      { x: 1, y: 1 },
      false,
    ],
  ]);

  describe('failure descriptions name the failing check', () => {
    it('describes a failed comparison with the actual value: "amount lte 1000 (was 1500)"', () => {
      const guard: Guard = { field: 'amount', op: 'lte', value: 1000 };
      const r = failure(guard, { amount: 1500 });
      expect(r.description).to.equal('amount lte 1000 (was 1500)');
      expect(r.failed).to.equal(guard);
    });

    it('says "was missing" for an absent field', () => {
      expect(failure({ field: 'serial', op: 'exists' }, {}).description).to.equal('serial exists (was missing)');
    });

    it('quotes strings and renders lists as JSON', () => {
      expect(failure({ field: 'c', op: 'in', value: ['EUR', 'USD'] }, { c: 'JPY' }).description).to.equal(
        'c in ["EUR","USD"] (was "JPY")',
      );
      expect(failure({ field: 's', op: 'matches', value: '^a' }, { s: 'b' }).description).to.equal(
        's matches "^a" (was "b")',
      );
    });

    it('describes exists false', () => {
      expect(failure({ field: 'x', op: 'exists', value: false }, { x: 1 }).description).to.equal(
        'x exists false (was 1)',
      );
    });

    it('cuts very long actual values short', () => {
      const d = failure({ field: 's', op: 'eq', value: 'x' }, { s: 'y'.repeat(10_000) }).description;
      expect(d.length).to.be.lessThan(150);
    });

    it('all reports its first failing check, not the whole combinator', () => {
      const inner: Guard = { field: 'b', op: 'eq', value: 2 };
      const r = failure({ all: [{ field: 'a', op: 'eq', value: 1 }, inner, { field: 'c', op: 'exists' }] }, { a: 1 });
      expect(r.failed).to.equal(inner);
      expect(r.description).to.equal('b eq 2 (was missing)');
    });

    it('any reports itself with every reason when nothing passes', () => {
      const guard: Guard = {
        any: [
          { field: 'a', op: 'eq', value: 1 },
          { field: 'b', op: 'gt', value: 2 },
        ],
      };
      const r = failure(guard, { a: 0 });
      expect(r.failed).to.equal(guard);
      expect(r.description).to.equal('any(a eq 1, b gt 2) (none passed: a eq 1 (was 0); b gt 2 (was missing))');
    });

    it('not reports itself when its operand passes', () => {
      const guard: Guard = { not: { field: 'serial', op: 'exists' } };
      const r = failure(guard, { serial: 'X' });
      expect(r.failed).to.equal(guard);
      expect(r.description).to.equal('not(serial exists) (inner check passed)');
    });

    it('describeGuard renders nested guards', () => {
      expect(
        describeGuard({
          all: [{ field: 'a', op: 'in', value: [1] }, { not: { any: [{ field: 'b', op: 'exists' }] } }],
        }),
      ).to.equal('all(a in [1], not(any(b exists)))');
    });
  });

  describe("evaluateGuards (a transition's list)", () => {
    it('passes an empty list', () => {
      expect(evaluateGuards([], {})).to.deep.equal({ pass: true });
    });

    it('reports the first failing guard of the list', () => {
      const second: Guard = { field: 'b', op: 'exists' };
      const r = evaluateGuards([{ field: 'a', op: 'exists' }, second, { field: 'c', op: 'exists' }], { a: 1 });
      expect(r.pass).to.equal(false);
      if (!r.pass) expect(r.failed).to.equal(second);
    });
  });

  describe('matches runs in linear time (RE2, no catastrophic backtracking)', () => {
    it('evaluates (a+)+$ against 100 000 "a"s followed by "b" quickly and returns false', () => {
      const s = 'a'.repeat(100_000) + 'b';
      const started = Date.now();
      expect(passes({ field: 's', op: 'matches', value: '(a+)+$' }, { s })).to.equal(false);
      expect(Date.now() - started).to.be.lessThan(2000);
    });

    it('evaluates (x+x+)+y and (.*a){20} on long inputs quickly', () => {
      const started = Date.now();
      expect(passes({ field: 's', op: 'matches', value: '(x+x+)+y' }, { s: 'x'.repeat(50_000) })).to.equal(false);
      expect(passes({ field: 's', op: 'matches', value: '^(.*a){20}$' }, { s: 'a'.repeat(5_000) + '!' })).to.equal(
        false,
      );
      expect(Date.now() - started).to.be.lessThan(2000);
    });
  });

  describe('malformed guards that skipped validation fail instead of throwing', () => {
    const bad: [string, unknown][] = [
      ['unknown op', { field: 'a', op: 'like', value: 1 }],
      ['pattern RE2 cannot compile', { field: 'a', op: 'matches', value: '(?=a)' }],
      ['non-string pattern', { field: 'a', op: 'matches', value: 1 }],
      ['in without a list', { field: 'a', op: 'in', value: 'a' }],
      ['non-string field', { field: 1, op: 'exists' }],
      ['null', null],
      ['a string', 'a eq 1'],
      ['an empty object', {}],
    ];
    for (const [label, guard] of bad) {
      it(`fails on ${label}`, () => {
        const r = evaluateGuard(guard as Guard, { a: 'a' });
        expect(r.pass).to.equal(false);
        if (!r.pass) expect(r.description).to.be.a('string').and.not.equal('');
      });
    }

    it('is never turned into a pass by not or any', () => {
      const broken = { field: 'a', op: 'like', value: 1 } as unknown as Guard;
      for (const guard of [
        { not: broken },
        { not: { not: broken } },
        { any: [{ field: 'a', op: 'exists' }, broken] },
        { any: [broken, { field: 'a', op: 'exists' }] },
        { not: { any: [broken] } },
      ] as Guard[]) {
        const r = evaluateGuard(guard, { a: 'a' });
        expect(r.pass, describeGuard(guard)).to.equal(false);
        if (!r.pass) {
          expect(r.failed).to.equal(broken);
          expect(r.description).to.include('malformed');
        }
      }
    });

    it('fails on absurdly deep nesting without overflowing the stack', () => {
      let guard: Guard = { field: 'a', op: 'exists' };
      for (let i = 0; i < 100_000; i++) guard = { not: guard };
      expect(evaluateGuard(guard, { a: 1 }).pass).to.equal(false);
      guard = { not: guard }; // odd or even number of nots, still a failure
      expect(evaluateGuard(guard, { a: 1 }).pass).to.equal(false);
    });
  });

  describe('properties', () => {
    const fieldArb = fc.constantFrom('a', 'b', 'a.b', 'a.0', 'x.y.z', '__proto__', 'constructor.name', 'toString');
    const opArb = fc.constantFrom('eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'exists', 'matches', 'bogus');
    const leaf = fc.record({ field: fieldArb, op: opArb, value: fc.oneof(fc.jsonValue(), fc.string()) });
    const guardArb: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
      g: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.record({ all: fc.array(tie('g'), { maxLength: 3 }) }),
        fc.record({ any: fc.array(tie('g'), { maxLength: 3 }) }),
        fc.record({ not: tie('g') }),
        fc.anything(),
      ),
    })).g;
    const contextArb = fc.dictionary(fc.constantFrom('a', 'b', 'x', '__proto__', 'constructor'), fc.jsonValue());

    it('evaluateGuard never throws and always returns a well-formed result', () => {
      fc.assert(
        fc.property(guardArb, contextArb, (guard, ctx) => {
          const r = evaluateGuard(guard as Guard, ctx);
          if (!r.pass) expect(r.description).to.be.a('string');
          else expect(r).to.deep.equal({ pass: true });
        }),
        { numRuns: 1000 },
      );
    });

    // leaves of the shapes validation accepts
    const validLeaf = fc.oneof(
      fc.record({ field: fieldArb, op: fc.constantFrom('eq', 'ne'), value: fc.jsonValue() }),
      fc.record({
        field: fieldArb,
        op: fc.constantFrom('gt', 'gte', 'lt', 'lte'),
        value: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string()),
      }),
      fc.record({ field: fieldArb, op: fc.constantFrom('in', 'not_in'), value: fc.array(fc.jsonValue()) }),
      fc.record({ field: fieldArb, op: fc.constant('exists'), value: fc.boolean() }),
      fc.record({ field: fieldArb, op: fc.constant('matches'), value: fc.constantFrom('a', '^b', '[0-9]+$', '') }),
    );

    it('for well-formed checks, not(g) passes exactly when g fails, and eq and ne disagree', () => {
      fc.assert(
        fc.property(validLeaf, contextArb, (g, ctx) => {
          expect(passes({ not: g as Guard }, ctx)).to.equal(!passes(g as Guard, ctx));
          const eq = passes({ field: g.field, op: 'eq', value: g.value }, ctx);
          expect(passes({ field: g.field, op: 'ne', value: g.value }, ctx)).to.equal(!eq);
        }),
        { numRuns: 500 },
      );
    });

    it('evaluation never pollutes Object.prototype', () => {
      fc.assert(
        fc.property(guardArb, contextArb, (guard, ctx) => {
          evaluateGuard(guard as Guard, ctx);
          expect(Object.prototype).to.not.have.property('x');
          expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
        }),
        { numRuns: 300 },
      );
    });
  });
});
