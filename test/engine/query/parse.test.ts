// Key splitting, grouping, control params, errors and the canonical cache key.
// chai 6 ships no type declarations and @types/chai is not installed.
// @ts-ignore -- harmless once typings exist
import { expect } from 'chai';
import fc from 'fast-check';
import { CONTROL_PARAMS, canonicalQueryKey, parseKey, parseQuery } from '../../../engine/query/index.js';

const q = (s: string) => parseQuery(new URLSearchParams(s));
const key = (s: string) => canonicalQueryKey(new URLSearchParams(s));

describe('query/parse keys', () => {
  const valid: [string, string, boolean, string | null][] = [
    ['status', 'status', false, null],
    ['region', 'region', false, null],
    ['q', 'q', false, null],
    ['tag', 'tag', false, null],
    ['name__isw', 'name', false, 'isw'],
    ['asn__gte', 'asn', false, 'gte'],
    ['region__n', 'region', false, 'n'],
    ['host__net_in', 'host', false, 'net_in'],
    ['network__net_contained', 'network', false, 'net_contained'],
    ['network__net_contained_or_equal', 'network', false, 'net_contained_or_equal'],
    ['rack_count', 'rack_count', false, null],
    ['rack_count__lt', 'rack_count', false, 'lt'],
    ['cf_rack_count', 'rack_count', true, null],
    ['cf_rack_count__lt', 'rack_count', true, 'lt'],
    ['cf_x', 'x', true, null],
    ['cf_1__n', '1', true, 'n'],
    ['cf_cf_x', 'cf_x', true, null],
    ['cf', 'cf', false, null],
    ['cf__lt', 'cf', false, 'lt'], // no name char after `cf_`: not a prefix
    ['CF_x', 'CF_x', false, null], // prefix is case-sensitive
    ['x__cf_y', 'x', false, 'cf_y'], // `cf_` is only a prefix at the start
    ['xcf_y', 'xcf_y', false, null],
    ['Name2__IEXACT', 'Name2', false, 'IEXACT'],
    ['123', '123', false, null],
    ['a_b_c__d_e_f', 'a_b_c', false, 'd_e_f'],
  ];
  for (const [param, field, cf, lookup] of valid) {
    it(`${param} -> field=${field} cf=${cf} lookup=${lookup}`, () => {
      const r = parseQuery([[param, 'v']]);
      expect(r.errors).to.deep.equal([]);
      expect(r.terms).to.deep.equal([{ param, field, cf, lookup, values: [{ raw: 'v', kind: 'text' }] }]);
      expect(parseKey(param)).to.deep.equal({ key: { field, cf, lookup }, error: null });
    });
  }

  // [key, offset where it goes wrong]
  const invalid: [string, number][] = [
    ['', 0],
    ['a____b', 3],
    ['a___b', 3],
    ['__x', 0],
    ['x__', 3],
    ['_x', 0],
    ['x_', 1],
    ['a__b_', 4],
    ['name__ic__x', 8],
    ['na me', 2],
    [' name', 0],
    ['name ', 4],
    ['ñame', 0],
    ['name__ñ', 6],
    ['日本', 0],
    ['cf_', 2],
    ['cf_x__', 6],
    ['cf___x', 4], // `cf`, `__`, then a stray `_`
    ['__proto__', 0],
    ['name-x', 4],
    ['name.x', 4],
    ['name[0]', 4],
    ['a\nb', 1],
  ];
  for (const [param, offset] of invalid) {
    it(`${JSON.stringify(param)} is an Unknown filter field at ${offset}`, () => {
      const r = parseQuery([[param, 'v']]);
      expect(r.terms).to.deep.equal([]);
      expect(r.errors).to.deep.equal([{ param, offset, message: 'Unknown filter field' }]);
    });
  }
});

describe('query/parse parseQuery', () => {
  it('parses the typical Nautobot-style query', () => {
    const r = q(
      'status=active&region=eu&name__isw=core&asn__gte=65000&cf_rack_count__lt=4' +
        '&network__net_contained=10.0.0.0/8&host__net_in=10.0.0.0/31&host__net_in=10.0.0.2/31' +
        '&tag=a&tag=b&region__n=null&q=core',
    );
    expect(r.errors).to.deep.equal([]);
    expect(r.control).to.deep.equal({});
    expect(
      r.terms.map((t) => [t.param, t.field, t.cf, t.lookup, t.values.map((v) => `${v.raw}:${v.kind}`)]),
    ).to.deep.equal([
      ['status', 'status', false, null, ['active:text']],
      ['region', 'region', false, null, ['eu:text']],
      ['name__isw', 'name', false, 'isw', ['core:text']],
      ['asn__gte', 'asn', false, 'gte', ['65000:integer']],
      ['cf_rack_count__lt', 'rack_count', true, 'lt', ['4:integer']],
      ['network__net_contained', 'network', false, 'net_contained', ['10.0.0.0/8:cidr4']],
      ['host__net_in', 'host', false, 'net_in', ['10.0.0.0/31:cidr4', '10.0.0.2/31:cidr4']],
      ['tag', 'tag', false, null, ['a:text', 'b:text']],
      ['region__n', 'region', false, 'n', ['null:null']],
      ['q', 'q', false, null, ['core:text']],
    ]);
  });

  it('groups repeated params into one term, values in given order, terms in first-appearance order', () => {
    const r = q('tag=b&status=x&tag=a&tag=b&status=y');
    expect(r.terms.map((t) => t.param)).to.deep.equal(['tag', 'status']);
    expect(r.terms[0]!.values.map((v) => v.raw)).to.deep.equal(['b', 'a', 'b']);
    expect(r.terms[1]!.values.map((v) => v.raw)).to.deep.equal(['x', 'y']);
  });

  it('keeps distinct params on one field as separate terms', () => {
    const r = q('asn__gte=1&asn__lte=9&asn=5&cf_asn=6');
    expect(r.terms.map((t) => [t.param, t.field, t.cf, t.lookup])).to.deep.equal([
      ['asn__gte', 'asn', false, 'gte'],
      ['asn__lte', 'asn', false, 'lte'],
      ['asn', 'asn', false, null],
      ['cf_asn', 'asn', true, null],
    ]);
  });

  it('separates control params, in order, never as errors', () => {
    const r = q(
      'limit=50&status=a&offset=100&ordering=-name&ordering=asn&brief=1&format=json&include=config_context' +
        '&depth=2&api_version=2.1&exclude_m2m=true&explain=1&limit=10',
    );
    expect(r.terms.map((t) => t.param)).to.deep.equal(['status']);
    expect(r.errors).to.deep.equal([]);
    expect(r.control).to.deep.equal({
      limit: ['50', '10'],
      offset: ['100'],
      ordering: ['-name', 'asn'],
      brief: ['1'],
      format: ['json'],
      include: ['config_context'],
      depth: ['2'],
      api_version: ['2.1'],
      exclude_m2m: ['true'],
      explain: ['1'],
    });
  });

  it('exposes exactly the documented control params', () => {
    expect([...CONTROL_PARAMS].sort()).to.deep.equal([
      'api_version',
      'brief',
      'depth',
      'exclude',
      'exclude_m2m',
      'explain',
      'fields',
      'format',
      'include',
      'limit',
      'offset',
      'omit',
      'ordering',
      'start',
    ]);
  });

  it('does not check control values at all (even huge ones)', () => {
    const big = 'x'.repeat(5000);
    const r = parseQuery([
      ['limit', 'abc'],
      ['ordering', big],
      ['depth', ''],
    ]);
    expect(r.errors).to.deep.equal([]);
    expect(r.control).to.deep.equal({ limit: ['abc'], ordering: [big], depth: [''] });
  });

  it('keeps values exactly as given', () => {
    const r = parseQuery([
      ['name', ' core '],
      ['name', ''],
      ['name', 'a&b=c'],
      ['name', 'Ünïcode ✓'],
      ['asn', ' 5'],
    ]);
    expect(r.terms[0]!.values).to.deep.equal([
      { raw: ' core ', kind: 'text' },
      { raw: '', kind: 'text' },
      { raw: 'a&b=c', kind: 'text' },
      { raw: 'Ünïcode ✓', kind: 'text' },
    ]);
    expect(r.terms[1]!.values).to.deep.equal([{ raw: ' 5', kind: 'text' }]);
  });

  it('classifies every kind of value inside terms', () => {
    const r = parseQuery([
      ['v', 'null'],
      ['v', 'False'],
      ['v', '-5'],
      ['v', '1.5'],
      ['v', '2024-01-02'],
      ['v', '2024-01-02T03:04:05Z'],
      ['v', '3fa85f64-5717-4562-b3fc-2c963f66afa6'],
      ['v', '1.2.3.4'],
      ['v', '::ffff:1.2.3.4'],
      ['v', '10.0.0.0/8'],
      ['v', 'fd78:da4f:e596:c217::/64'],
      ['v', 'aa:bb:cc:00:11:22'],
    ]);
    expect(r.terms[0]!.values.map((v) => v.kind)).to.deep.equal([
      'null',
      'boolean',
      'integer',
      'decimal',
      'date',
      'datetime',
      'uuid',
      'ipv4',
      'ipv6',
      'cidr4',
      'cidr6',
      'text',
    ]);
  });

  it('reports a malformed key once however often it repeats, and keeps going', () => {
    const r = q('a____b=1&status=x&a____b=2&x__=3&status=y');
    expect(r.errors).to.deep.equal([
      { param: 'a____b', offset: 3, message: 'Unknown filter field' },
      { param: 'x__', offset: 3, message: 'Unknown filter field' },
    ]);
    expect(r.terms.map((t) => [t.param, t.values.map((v) => v.raw)])).to.deep.equal([['status', ['x', 'y']]]);
  });

  it('rejects values over 4096 characters with the param name', () => {
    const ok = 'a'.repeat(4096);
    const tooLong = 'a'.repeat(4097);
    const r = parseQuery([
      ['name', ok],
      ['name', tooLong],
      ['desc', tooLong],
      ['name', 'b'],
    ]);
    expect(r.errors).to.deep.equal([
      { param: 'name', offset: 4096, message: 'Ensure this value has at most 4096 characters.' },
      { param: 'desc', offset: 4096, message: 'Ensure this value has at most 4096 characters.' },
    ]);
    // `desc` lost its only value, so there is no term for it.
    expect(r.terms.map((t) => [t.param, t.values.map((v) => v.raw.length)])).to.deep.equal([['name', [4096, 1]]]);
  });

  it('reports a key error rather than a length error for a bad key', () => {
    const r = parseQuery([['bad__', 'a'.repeat(5000)]]);
    expect(r.errors).to.deep.equal([{ param: 'bad__', offset: 5, message: 'Unknown filter field' }]);
  });

  it('returns an empty result for no params', () => {
    expect(parseQuery([])).to.deep.equal({ terms: [], control: {}, errors: [] });
  });

  it('accepts any iterable of pairs (generator)', () => {
    function* pairs(): Generator<readonly [string, string]> {
      yield ['a', '1'];
      yield ['a', '2'];
    }
    expect(parseQuery(pairs()).terms[0]!.values.map((v) => v.raw)).to.deep.equal(['1', '2']);
  });

  it('gives the same answer on repeated calls (memoised path)', () => {
    const s = 'cf_rack_count__lt=4&bad__=1&network__net_contained=10.0.0.0/8';
    expect(q(s)).to.deep.equal(q(s));
    expect(q(s).errors).to.have.length(1);
  });

  it('does not mix up keys that look like Object.prototype members', () => {
    const r = q('constructor=1&toString=2&hasOwnProperty=3');
    expect(r.terms.map((t) => t.field)).to.deep.equal(['constructor', 'toString', 'hasOwnProperty']);
    expect(r.control).to.deep.equal({});
  });
});

describe('query/parse canonicalQueryKey', () => {
  it('is equal for reordered params', () => {
    expect(key('status=active&region=eu&asn__gte=1')).to.equal(key('asn__gte=1&region=eu&status=active'));
  });

  it('ignores the order of repeated filter values', () => {
    expect(key('tag=a&status=x&tag=b')).to.equal(key('tag=b&tag=a&status=x'));
  });

  it('differs for different values, names or value counts', () => {
    expect(key('status=active')).to.not.equal(key('status=planned'));
    expect(key('status=active')).to.not.equal(key('state=active'));
    expect(key('tag=a')).to.not.equal(key('tag=a&tag=a'));
    expect(key('status=active')).to.not.equal(key('status__n=active'));
  });

  it('excludes limit and offset so pages share a key', () => {
    expect(key('status=a&limit=50&offset=0')).to.equal(key('offset=100&status=a&limit=50'));
    expect(key('status=a&limit=50')).to.equal('status=a');
  });

  it('includes the other control params', () => {
    expect(key('status=a&ordering=name')).to.not.equal(key('status=a'));
    expect(key('status=a&depth=1')).to.not.equal(key('status=a&depth=2'));
    expect(key('brief=1&status=a')).to.equal(key('status=a&brief=1'));
  });

  it('keeps the order of repeated control values (last one may win downstream)', () => {
    expect(key('ordering=name&ordering=asn')).to.equal('ordering=name&ordering=asn');
    expect(key('ordering=name&ordering=asn')).to.not.equal(key('ordering=asn&ordering=name'));
  });

  it('sorts names and values and URL-encodes them', () => {
    expect(key('b=2&a=z&a=y')).to.equal('a=y&a=z&b=2');
    expect(
      canonicalQueryKey([
        ['name', 'a b&c=d'],
        ['x y', 'é'],
      ]),
    ).to.equal('name=a%20b%26c%3Dd&x%20y=%C3%A9');
    expect(canonicalQueryKey([['a', '1&a=2']])).to.not.equal(
      canonicalQueryKey([
        ['a', '1'],
        ['a', '2'],
      ]),
    );
  });

  it('returns empty string for nothing to key on', () => {
    expect(canonicalQueryKey([])).to.equal('');
    expect(key('limit=1&offset=2')).to.equal('');
  });

  it('handles lone surrogates without throwing and without collisions', () => {
    const lone = canonicalQueryKey([['name', 'a\uD800b']]);
    expect(lone).to.equal('name=a%uD800b');
    expect(lone).to.not.equal(canonicalQueryKey([['name', 'a\uFFFDb']]));
    expect(lone).to.not.equal(canonicalQueryKey([['name', 'a%uD800b']]));
    expect(canonicalQueryKey([['x', '\uDC00😀\uD83D']])).to.equal('x=%uDC00%F0%9F%98%80%uD83D');
  });
});

describe('query/parse properties', () => {
  const seg = fc.stringMatching(/^[A-Za-z0-9]{1,6}$/);
  const name = fc.array(seg, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('_'));

  it('keys built from names and lookups round-trip into (field, cf, lookup)', () => {
    fc.assert(
      fc.property(fc.boolean(), name, fc.option(name, { nil: null }), (cf, field, lookup) => {
        const param = `${cf ? 'cf_' : ''}${field}${lookup === null ? '' : `__${lookup}`}`;
        fc.pre(!CONTROL_PARAMS.has(param));
        // A plain field that itself starts with `cf_<name>` reads as a custom field.
        const impliedCf = !cf && /^cf_[A-Za-z0-9]/.test(field);
        const expected = impliedCf ? { field: field.slice(3), cf: true, lookup } : { field, cf, lookup };
        const r = parseQuery([[param, 'v']]);
        expect(r.errors).to.deep.equal([]);
        expect(r.terms).to.have.length(1);
        const t = r.terms[0]!;
        expect({ field: t.field, cf: t.cf, lookup: t.lookup }).to.deep.equal(expected);
        expect(t.param).to.equal(param);
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws on random input, and accounts for every pair', () => {
    const str = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.string({ unit: fc.constantFrom('a', '_', 'c', 'f', '1', ' ', ':') }),
      fc.constantFrom(...CONTROL_PARAMS),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(str, str), { maxLength: 12 }), (pairs) => {
        const r = parseQuery(pairs);
        expect(canonicalQueryKey(pairs)).to.be.a('string');
        const controlCount = Object.values(r.control).reduce((n, vs) => n + vs.length, 0);
        const valueCount = r.terms.reduce((n, t) => n + t.values.length, 0);
        const badKeys = new Set(r.errors.map((e) => e.param));
        const dropped = pairs.filter(([k]) => badKeys.has(k) && !CONTROL_PARAMS.has(k)).length;
        expect(controlCount + valueCount + dropped).to.equal(pairs.length);
        for (const e of r.errors) expect(e.message).to.equal('Unknown filter field');
      }),
      { numRuns: 2000 },
    );
  });

  it('canonicalQueryKey is invariant under shuffling the pairs', () => {
    const pair = fc.tuple(fc.constantFrom('a', 'b', 'tag', 'ordering', 'limit', 'x y'), fc.string({ maxLength: 4 }));
    fc.assert(
      fc.property(
        fc
          .array(pair, { maxLength: 8 })
          .chain((ps) => fc.tuple(fc.constant(ps), fc.shuffledSubarray(ps, { minLength: ps.length }))),
        ([a, b]) => {
          // Control values keep their order by design, so only compare when it is unchanged.
          const ctl = (ps: typeof a) =>
            ps
              .filter(([k]) => k === 'ordering')
              .map(([, v]) => v)
              .join('\u0000');
          fc.pre(ctl(a) === ctl(b));
          expect(canonicalQueryKey(b)).to.equal(canonicalQueryKey(a));
        },
      ),
    );
  });
});
