// Value classification: kinds by shape only (range checks belong to the planner).
// chai 6 ships no type declarations and @types/chai is not installed.
// @ts-ignore -- harmless once typings exist
import { expect } from 'chai';
import fc from 'fast-check';
import { classifyValue, type ValueKind } from '../../../engine/query/index.js';

const ALL_KINDS: readonly ValueKind[] = [
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
];

const cases: Record<ValueKind, readonly string[]> = {
  null: ['null', 'NULL', 'Null', 'nUlL'],
  boolean: ['true', 'false', 'True', 'False'],
  integer: ['0', '-5', '65000', '007', '4294967296', '-0', '123456789012345678901234567890'],
  decimal: ['1.5', '-1.5', '0.0', '100.25', '00.10'],
  date: ['2024-01-02', '1999-12-31', '2024-13-45' /* shape only */],
  datetime: [
    '2024-01-02T03:04:05Z',
    '2024-01-02T03:04',
    '2024-01-02T03:04:05',
    '2024-01-02T03:04:05.123',
    '2024-01-02T03:04:05.123456Z',
    '2024-01-02T03:04:05+02:00',
    '2024-01-02T03:04-05:30',
    '2024-01-02 03:04:05',
    '2024-01-02 03:04:05.5+00:00',
  ],
  uuid: [
    '3fa85f64-5717-4562-b3fc-2c963f66afa6',
    '3FA85F64-5717-4562-B3FC-2C963F66AFA6',
    '00000000-0000-0000-0000-000000000000',
    '12345678-1234-1234-1234-123456789012',
  ],
  ipv4: ['10.0.0.1', '0.0.0.0', '255.255.255.255', '999.1.1.1' /* shape only */, '1.2.3.4'],
  ipv6: [
    '::',
    '::1',
    '1::',
    'fe80::1',
    '2001:db8::8a2e:370:7334',
    '2001:0db8:0000:0000:0000:ff00:0042:8329',
    '1:2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7::',
    '::2:3:4:5:6:7:8',
    'FE80::ABCD',
    '::ffff:1.2.3.4',
    '::1.2.3.4',
    '64:ff9b::192.0.2.33',
    '1:2:3:4:5:6:1.2.3.4',
    '1:2:3:4:5::1.2.3.4',
    '1234::',
  ],
  cidr4: ['10.0.0.0/8', '0.0.0.0/0', '192.168.1.0/24', '10.0.0.1/32', '10.0.0.0/99' /* shape only */],
  cidr6: ['fd78:da4f:e596:c217::/64', '::/0', '::1/128', '2001:db8::/32', '::ffff:10.0.0.0/104', '1:2:3:4:5:6:7:8/64'],
  text: [
    '',
    'core-rtr-01',
    'active',
    'core',
    'eu',
    'TRUE',
    'FALSE',
    'yes',
    '1e5',
    '.5',
    '1.',
    '+5',
    '--5',
    '5-',
    'nullx',
    'xnull',
    'null ',
    ' null',
    'truex',
    'true false',
    ' 1',
    '1 ',
    '1,2',
    '1.5.',
    '-1.5e3',
    'aa:bb:cc:00:11:22', // MAC: 6 groups and no '::' is not an IPv6 shape
    'aa-bb-cc-00-11-22',
    '1::2::3',
    ':::',
    ':1::',
    '1::2:',
    '1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:8:9',
    '1::2:3:4:5:6:7:8',
    '12345::',
    'g::1',
    '1.2.3.4::',
    '::1.2.3',
    '::1.2.3.4.5',
    '1:2:3:4:5:6:7:1.2.3.4',
    'fe80::1%eth0',
    '12:30',
    '1.2.3',
    '1.2.3.4.5',
    '1.2.3.4/',
    '1.2.3.4/x',
    '1.2.3.4/8x',
    '10.0.0.0/8 ',
    '::/',
    '::/x',
    'fd00::/64/1',
    '1.2.3.4:80',
    '2024-01-02T',
    '2024-01-02T03',
    '2024-01-02T03:04:05z',
    '2024-01-02T03:04:05+0200',
    '2024-1-2',
    '24-01-02',
    '2024-01-02x',
    '2024/01/02',
    '3fa85f64-5717-4562-b3fc-2c963f66afa',
    '3fa85f64-5717-4562-b3fc-2c963f66afa6x',
    '{3fa85f64-5717-4562-b3fc-2c963f66afa6}',
    '3fa85f6457174562b3fc2c963f66afa6',
    'a\nb',
    '\n',
    '1\n',
    'ünïcödé',
    '😀',
    '\u0000',
    'core rtr',
  ],
};

describe('query/values classifyValue', () => {
  for (const kind of ALL_KINDS) {
    describe(`kind ${kind}`, () => {
      for (const raw of cases[kind]) {
        it(`${JSON.stringify(raw)} -> ${kind}`, () => {
          expect(classifyValue(raw)).to.equal(kind);
        });
      }
    });
  }

  it('classifies a 4096-character value without trouble', () => {
    expect(classifyValue('a'.repeat(4096))).to.equal('text');
    expect(classifyValue('1'.repeat(4096))).to.equal('integer');
    expect(classifyValue('1:'.repeat(2048))).to.equal('text');
  });

  it('handles lone surrogates', () => {
    expect(classifyValue('\uD800')).to.equal('text');
    expect(classifyValue('1\uDC00')).to.equal('text');
  });
});

describe('query/values properties', () => {
  it('never throws and always returns a known kind', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary' }),
          fc.string({ unit: fc.constantFrom(...'0123456789abcdef:./-TZ ') }),
        ),
        (s) => {
          expect(ALL_KINDS).to.include(classifyValue(s));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('integers', () => {
    fc.assert(
      fc.property(fc.bigInt(), (n) => {
        expect(classifyValue(n.toString())).to.equal('integer');
      }),
    );
  });

  it('decimals', () => {
    fc.assert(
      fc.property(fc.integer(), fc.nat(), (i, f) => {
        expect(classifyValue(`${i}.${f}`)).to.equal('decimal');
      }),
    );
  });

  it('IPv4 addresses and CIDRs', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.integer({ min: 0, max: 32 }), (a, len) => {
        expect(classifyValue(a)).to.equal('ipv4');
        expect(classifyValue(`${a}/${len}`)).to.equal('cidr4');
      }),
    );
  });

  it('IPv6 addresses (all textual forms fast-check generates) and CIDRs', () => {
    fc.assert(
      fc.property(fc.ipV6(), fc.integer({ min: 0, max: 128 }), (a, len) => {
        expect(classifyValue(a)).to.equal('ipv6');
        expect(classifyValue(a.toUpperCase())).to.equal('ipv6');
        expect(classifyValue(`${a}/${len}`)).to.equal('cidr6');
      }),
      { numRuns: 1000 },
    );
  });

  it('uuids', () => {
    fc.assert(
      fc.property(fc.uuid(), (u) => {
        expect(classifyValue(u)).to.equal('uuid');
      }),
    );
  });

  it('dates and ISO datetimes', () => {
    const date = fc.date({
      min: new Date('1000-01-01T00:00:00Z'),
      max: new Date('9999-12-31T23:59:59Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(date, (d) => {
        const iso = d.toISOString();
        expect(classifyValue(iso)).to.equal('datetime');
        expect(classifyValue(iso.slice(0, 10))).to.equal('date');
        expect(classifyValue(iso.slice(0, 19).replace('T', ' '))).to.equal('datetime');
      }),
    );
  });

  it('a valid value with trailing junk is text', () => {
    const valid = fc.oneof(fc.ipV4(), fc.ipV6(), fc.uuid(), fc.integer().map(String));
    fc.assert(
      fc.property(valid, fc.constantFrom('x', ' ', '/', '-', '%', '#', 'g', 'Z!'), (v, junk) => {
        expect(classifyValue(v + junk)).to.equal('text');
      }),
    );
  });
});
