// chai 6 ships no type declarations and @types/chai is not installed.
// @ts-ignore -- harmless once typings exist
import { expect } from 'chai';
import fc from 'fast-check';
import { compareSemver, isSemver, latestVersion, parseSemver } from '../../../engine/lifecycle/index.js';

describe('lifecycle semver: parsing', () => {
  for (const v of [
    '0.0.0',
    '1.2.3',
    '10.20.30',
    '1.0.0-alpha',
    '1.0.0-alpha.1',
    '1.0.0-0.3.7',
    '1.0.0-x.7.z.92',
    '1.0.0-x-y-z.--',
    '1.0.0+20130313144700',
    '1.0.0-beta+exp.sha.5114f85',
    '1.0.0+21AF26D3----117B344092BD',
    '9007199254740991.9007199254740991.9007199254740991',
    '1.0.0-9007199254740991',
    '1.0.0+99999999999999999999',
  ]) {
    it(`accepts ${v}`, () => expect(isSemver(v)).to.equal(true));
  }

  for (const v of [
    '',
    '1',
    '1.2',
    '1.2.3.4',
    'v1.2.3',
    '01.2.3',
    '1.02.3',
    '1.2.03',
    '1.2.3-',
    '1.2.3+',
    '1.2.3-01',
    '1.2.3-a..b',
    '1.2.3+a..b',
    '1.2.3-a_b',
    ' 1.2.3',
    '1.2.3 ',
    '1.2.-3',
    'a.b.c',
    '1.2.3-+',
    '-1.2.3',
    '1.2.3\n',
    '=1.2.3',
    'V1.2.3',
    '1.2.3-beta.01',
  ]) {
    it(`refuses ${JSON.stringify(v)}`, () => expect(parseSemver(v)).to.equal(undefined));
  }

  // Numbers are compared exactly only up to Number.MAX_SAFE_INTEGER (2^53 - 1): a version with a
  // larger number in its core or pre-release is not a version here (build metadata is not compared).
  for (const v of [
    '9007199254740992.0.0',
    '0.99999999999999999999.0',
    '0.0.9007199254740992',
    '1.0.0-9007199254740992',
    '1.0.0-alpha.99999999999999999999',
  ]) {
    it(`refuses ${v}: a number above Number.MAX_SAFE_INTEGER`, () => expect(isSemver(v)).to.equal(false));
  }

  it('splits a version into its parts', () => {
    expect(parseSemver('1.2.3-rc.1+build.5')).to.deep.equal({
      major: '1',
      minor: '2',
      patch: '3',
      prerelease: ['rc', '1'],
      build: ['build', '5'],
    });
  });
});

describe('lifecycle semver: compareSemver', () => {
  const ordered = (lower: string, higher: string) => {
    it(`orders ${lower} < ${higher}`, () => {
      expect(compareSemver(lower, higher)).to.be.lessThan(0);
      expect(compareSemver(higher, lower)).to.be.greaterThan(0);
    });
  };
  ordered('1.9.0', '1.10.0');
  ordered('1.0.9', '1.0.10');
  ordered('9.0.0', '10.0.0');
  ordered('1.99.99', '2.0.0');
  ordered('0.0.1', '0.1.0');
  ordered('1.0.0-alpha', '1.0.0');
  ordered('1.0.0-rc.99', '1.0.0');
  ordered('1.0.0', '1.0.1-alpha');
  ordered('1.0.0-9', '1.0.0-10'); // numeric identifiers compare numerically
  ordered('1.0.0-10', '1.0.0-a'); // numeric identifiers rank below alphanumeric
  ordered('1.0.0-Z', '1.0.0-a'); // ASCII order
  ordered('1.0.0-alpha', '1.0.0-alpha.0'); // more identifiers rank higher
  ordered('1.0.0.0', '1.0.0'); // not a version: below every valid version
  ordered('garbage', '0.0.0');
  ordered('9007199254740990.0.0', '9007199254740991.0.0');
  ordered('1.0.0-9007199254740990', '1.0.0-9007199254740991');
  ordered('99999999999999999999.0.0', '0.0.0'); // a number above MAX_SAFE_INTEGER: not a version

  it('follows the semver.org precedence example', () => {
    const chain = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
    ];
    for (let i = 0; i + 1 < chain.length; i++)
      expect(compareSemver(chain[i], chain[i + 1]), chain[i]).to.be.lessThan(0);
    expect([...chain].reverse().sort(compareSemver)).to.deep.equal(chain);
  });

  it('ignores build metadata', () => {
    expect(compareSemver('1.0.0+a', '1.0.0+b')).to.equal(0);
    expect(compareSemver('1.0.0-rc.1+x', '1.0.0-rc.1')).to.equal(0);
  });

  it('returns 0 for equal versions', () => {
    expect(compareSemver('2.3.4', '2.3.4')).to.equal(0);
    expect(compareSemver('2.3.4-x.1', '2.3.4-x.1')).to.equal(0);
  });

  it('orders invalid texts among themselves by plain string order, never throwing', () => {
    expect(compareSemver('a', 'b')).to.be.lessThan(0);
    expect(compareSemver('x', 'x')).to.equal(0);
    expect(compareSemver(undefined as unknown as string, '1.0.0')).to.be.lessThan(0);
  });

  const versionArb = fc
    .tuple(
      fc.nat(20),
      fc.nat(20),
      fc.nat(20),
      fc.option(
        fc.array(fc.oneof(fc.nat(12).map(String), fc.constantFrom('alpha', 'beta', 'rc', 'A', 'z-1')), {
          minLength: 1,
          maxLength: 3,
        }),
        { nil: undefined },
      ),
    )
    .map(([a, b, c, pre]) => `${a}.${b}.${c}${pre ? `-${pre.join('.')}` : ''}`);

  it('is a total order: antisymmetric and transitive', () => {
    fc.assert(
      fc.property(versionArb, versionArb, versionArb, (a, b, c) => {
        expect(isSemver(a)).to.equal(true);
        expect(Math.sign(compareSemver(a, b))).to.equal(-Math.sign(compareSemver(b, a)));
        if (compareSemver(a, b) <= 0 && compareSemver(b, c) <= 0) expect(compareSemver(a, c)).to.be.at.most(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with numeric tuple order on release versions', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(1000), { minLength: 3, maxLength: 3 }),
        fc.array(fc.nat(1000), { minLength: 3, maxLength: 3 }),
        (x, y) => {
          const expected = Math.sign(x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
          expect(Math.sign(compareSemver(x.join('.'), y.join('.')))).to.equal(expected);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('lifecycle semver: latestVersion', () => {
  it('picks 1.10.0 over 1.9.0 (not string order)', () => {
    expect(latestVersion(['1.2.0', '1.10.0', '1.9.0'])).to.equal('1.10.0');
  });

  it('prefers a release over its pre-releases', () => {
    expect(latestVersion(['2.0.0-rc.2', '2.0.0', '2.0.0-rc.10'])).to.equal('2.0.0');
    expect(latestVersion(['2.0.0-rc.2', '1.9.9', '2.0.0-rc.10'])).to.equal('2.0.0-rc.10');
  });

  it('ignores texts that are not versions', () => {
    expect(latestVersion(['latest', '1.0.0', '9.9', 'v2.0.0'])).to.equal('1.0.0');
  });

  it('returns undefined when no version is valid or the list is empty', () => {
    expect(latestVersion([])).to.equal(undefined);
    expect(latestVersion(['x', '1.0'])).to.equal(undefined);
  });

  it('returns the first of versions equal in precedence', () => {
    expect(latestVersion(['1.0.0+a', '1.0.0+b'])).to.equal('1.0.0+a');
  });

  it('returns an element no lower than any valid element', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.tuple(fc.nat(30), fc.nat(30), fc.nat(30)).map((t) => t.join('.')),
            fc.string(),
          ),
        ),
        (vs) => {
          const latest = latestVersion(vs);
          if (latest === undefined) {
            expect(vs.some(isSemver)).to.equal(false);
            return;
          }
          expect(vs).to.include(latest);
          for (const v of vs.filter(isSemver)) expect(compareSemver(latest, v)).to.be.at.least(0);
        },
      ),
      { numRuns: 500 },
    );
  });
});
