// chai 6 ships no type declarations and @types/chai is not installed.
// @ts-ignore -- harmless once typings exist
import { expect } from 'chai';
import fc from 'fast-check';
import {
  broadcastOf,
  formatAddress,
  formatCidr,
  hexToU32,
  isCanonicalV6,
  maxLength,
  networkOf,
  parseAddress,
  parseCidr,
  parseCidrWords,
  u32ToHex,
} from '../../../engine/net/ip.js';

const fmt = (text: string): string | null => {
  const a = parseAddress(text);
  return a === null ? null : formatAddress(a);
};

describe('net/ip parseAddress', () => {
  const valid: [string, 4 | 6, string][] = [
    ['0.0.0.0', 4, '00000000'],
    ['255.255.255.255', 4, 'ffffffff'],
    ['192.168.3.193', 4, 'c0a803c1'],
    ['10.0.0.1', 4, '0a000001'],
    ['::', 6, '0'.repeat(32)],
    ['::1', 6, '0'.repeat(31) + '1'],
    ['1::', 6, '0001' + '0'.repeat(28)],
    ['fd78:da4f:e596:c217::', 6, 'fd78da4fe596c2170000000000000000'],
    ['FD78:DA4F:E596:C217::5', 6, 'fd78da4fe596c2170000000000000005'],
    ['1:2:3:4:5:6:7:8', 6, '00010002000300040005000600070008'],
    ['0001:0002:0003:0004:0005:0006:0007:0008', 6, '00010002000300040005000600070008'],
    ['1:0:0:1:0:0:0:1', 6, '00010000000000010000000000000001'],
    ['1::2:3', 6, '00010000000000000000000000020003'],
    ['1:2:3:4:5:6:7::', 6, '00010002000300040005000600070000'],
    ['::2:3:4:5:6:7:8', 6, '00000002000300040005000600070008'],
    ['::ffff:1.2.3.4', 6, '00000000000000000000ffff01020304'],
    ['::1.2.3.4', 6, '00000000000000000000000001020304'],
    ['1:2:3:4:5:6:1.2.3.4', 6, '00010002000300040005000601020304'],
    ['64:ff9b::192.0.2.33', 6, '0064ff9b0000000000000000c0000221'],
  ];
  for (const [text, family, hex] of valid) {
    it(`parses ${text}`, () => {
      expect(parseAddress(text)).to.deep.equal({ family, hex });
    });
  }

  const invalid = [
    '',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '1.2.3.-1',
    '010.0.0.1',
    '1.2.3.04',
    '01.2.3.4',
    '1..2.3',
    '1.2.3.4.',
    ' 1.2.3.4',
    '1.2.3.4 ',
    '1.2.3.4/24',
    '0x1.2.3.4',
    '1.2.3.4a',
    '1234.1.1.1',
    '1:2:3:4:5:6:7:8:9',
    ':::',
    '1::2::3',
    'g::1',
    ':1::',
    '1::2:',
    ':1:2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7:8:',
    '1:2:3:4:5:6:7',
    '12345::',
    'fe80::1%eth0',
    'fe80::1%1',
    ' ::1',
    '::1 ',
    ':',
    '1:2:3:4:5:6:7::8:9',
    '1:2:3:4:5:6:7:1.2.3.4',
    '1:2:3:4:5:6::1.2.3.4',
    '::1.2.3',
    '::256.1.1.1',
    '::01.2.3.4',
    '1.2.3.4::',
    '::1.2.3.4:5',
    '::ffff:1.2.3.4.5',
    '1::2:3:4:5:6:7:8',
    '[::1]',
  ];
  for (const text of invalid) {
    it(`rejects ${JSON.stringify(text)}`, () => {
      expect(parseAddress(text)).to.equal(null);
    });
  }

  it('accepts the 7-explicit-group form with ::', () => {
    expect(parseAddress('1::3:4:5:6:7:8')?.hex).to.equal('00010000000300040005000600070008');
    expect(parseAddress('1:2:3:4:5:6:7::')?.family).to.equal(6);
  });
});

describe('net/ip formatAddress (RFC 5952)', () => {
  const cases: [string, string][] = [
    ['1:0:0:1:0:0:0:1', '1:0:0:1::1'],
    ['1:0:0:0:1:0:0:1', '1::1:0:0:1'], // tie: first run wins
    ['::', '::'],
    ['::1', '::1'],
    ['1::', '1::'],
    ['0:0:0:0:0:0:0:1', '::1'],
    ['fd78:da4f:e596:c217:0:0:0:0', 'fd78:da4f:e596:c217::'],
    ['2001:db8:0:0:0:0:2:1', '2001:db8::2:1'],
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'], // single zero group is not compressed
    ['2001:0DB8:0000:0000:0001:0000:0000:0001', '2001:db8::1:0:0:1'],
    ['::ffff:1.2.3.4', '::ffff:1.2.3.4'],
    ['::ffff:0102:0304', '::ffff:1.2.3.4'],
    ['::FFFF:0.0.0.0', '::ffff:0.0.0.0'],
    ['::1.2.3.4', '::102:304'],
    ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8'],
    ['0:1:0:1:0:1:0:1', '0:1:0:1:0:1:0:1'],
    ['1:0:0:2:0:0:3:4', '1::2:0:0:3:4'],
    ['1:2:3:4:5:6:0:0', '1:2:3:4:5:6::'],
    ['10.1.2.3', '10.1.2.3'],
    ['0.0.0.0', '0.0.0.0'],
  ];
  for (const [input, out] of cases) {
    it(`${input} -> ${out}`, () => {
      expect(fmt(input)).to.equal(out);
    });
  }
});

describe('net/ip parseCidr', () => {
  it('parses IPv4 with host bits', () => {
    expect(parseCidr('192.168.3.193/28')).to.deep.equal({
      family: 4,
      host: 'c0a803c1',
      network: 'c0a803c0',
      broadcast: 'c0a803cf',
      length: 28,
      hostBitsSet: true,
    });
  });
  it('parses IPv6 networks', () => {
    const c = parseCidr('fd78:da4f:e596:c217::/64');
    expect(c).to.deep.include({ family: 6, length: 64, hostBitsSet: false });
    expect(c?.broadcast).to.equal('fd78da4fe596c217ffffffffffffffff');
    expect(parseCidr('::/0')?.broadcast).to.equal('f'.repeat(32));
    expect(parseCidr('::/122')?.broadcast).to.equal('0'.repeat(30) + '3f');
    expect(parseCidr('::1/128')).to.deep.include({ length: 128, hostBitsSet: false });
  });
  it('defaults the length unless required', () => {
    expect(parseCidr('10.0.0.1')).to.deep.include({ length: 32, network: '0a000001' });
    expect(parseCidr('::1')).to.deep.include({ length: 128 });
    expect(parseCidr('10.0.0.1', { requireLength: true })).to.equal(null);
    expect(parseCidr('10.0.0.0/8', { requireLength: true })?.length).to.equal(8);
  });
  it('handles lengths 0 and max', () => {
    expect(parseCidr('10.1.2.3/0')).to.deep.include({ network: '00000000', broadcast: 'ffffffff' });
    expect(parseCidr('10.1.2.3/32')).to.deep.include({ network: '0a010203', broadcast: '0a010203' });
  });
  const invalid = [
    '10.0.0.1/33',
    '::/129',
    '10.0.0.0/-1',
    '10.0.0.0/+8',
    '10.0.0.0/',
    '10.0.0.0/8/8',
    '10.0.0.0/ 8',
    '10.0.0.0/8 ',
    '10.0.0.0/0x8',
    '10.0.0.0/1000',
    '/8',
    '1.2.3/8',
    '::/1e2',
    'fe80::1%eth0/64',
  ];
  for (const text of invalid) {
    it(`rejects ${JSON.stringify(text)}`, () => {
      expect(parseCidr(text)).to.equal(null);
    });
  }
});

describe('net/ip helpers', () => {
  it('masks at every nibble boundary', () => {
    expect(networkOf(4, 'c0a803c1', 26)).to.equal('c0a803c0');
    expect(broadcastOf(4, 'c0a803c1', 26)).to.equal('c0a803ff');
    expect(networkOf(4, 'ffffffff', 1)).to.equal('80000000');
    expect(broadcastOf(4, '00000000', 31)).to.equal('00000001');
    expect(networkOf(6, 'f'.repeat(32), 127)).to.equal('f'.repeat(31) + 'e');
    expect(networkOf(6, 'f'.repeat(32), 0)).to.equal('0'.repeat(32));
    expect(broadcastOf(6, '0'.repeat(32), 121)).to.equal('0'.repeat(30) + '7f');
  });
  it('converts u32 <-> hex', () => {
    expect(u32ToHex(0)).to.equal('00000000');
    expect(u32ToHex(0xffffffff)).to.equal('ffffffff');
    expect(u32ToHex(-1)).to.equal('ffffffff');
    expect(hexToU32('c0a80001')).to.equal(0xc0a80001);
    expect(maxLength(4)).to.equal(32);
    expect(maxLength(6)).to.equal(128);
  });
  it('formats CIDRs', () => {
    expect(formatCidr(4, 'c0a80300', 24)).to.equal('192.168.3.0/24');
    expect(formatCidr(6, 'fd78da4fe596c2170000000000000000', 64)).to.equal('fd78:da4f:e596:c217::/64');
  });
});

describe('net/ip properties', () => {
  const hexArb = (chars: number) =>
    fc
      .array(fc.integer({ min: 0, max: 15 }), { minLength: chars, maxLength: chars })
      .map((a) => a.map((d) => d.toString(16)).join(''));
  // Mostly-zero groups exercise '::' placement.
  const sparseV6 = fc
    .array(fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: 0xffff })), {
      minLength: 8,
      maxLength: 8,
    })
    .map((g) => g.map((v) => v.toString(16)).join(':'));

  it('format is a fixed point of parse (round trip)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6(), sparseV6), (x) => {
        const a = parseAddress(x);
        expect(a, x).to.not.equal(null);
        const f1 = formatAddress(a!);
        const b = parseAddress(f1);
        expect(b).to.deep.equal(a);
        expect(formatAddress(b!)).to.equal(f1);
      }),
      { numRuns: 3000 },
    );
  });

  it('every 128-bit value round-trips through text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          hexArb(32),
          hexArb(4).map((h) => '0'.repeat(20) + 'ffff' + h + h),
        ),
        (hex) => {
          expect(parseAddress(formatAddress({ family: 6, hex }))).to.deep.equal({ family: 6, hex });
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('agrees with the WHATWG URL IPv6 serializer for non-mapped addresses', () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV6(), sparseV6), (x) => {
        const a = parseAddress(x)!;
        if (a.hex.startsWith('00000000000000000000ffff')) return;
        const host = new URL(`http://[${x}]/`).hostname;
        expect(formatAddress(a)).to.equal(host.slice(1, -1));
      }),
      { numRuns: 2000 },
    );
  });

  it('networkOf/broadcastOf bound the host', () => {
    fc.assert(
      fc.property(hexArb(32), fc.integer({ min: 0, max: 128 }), (hex, len) => {
        const n = networkOf(6, hex, len),
          b = broadcastOf(6, hex, len);
        expect(n <= hex && hex <= b).to.equal(true);
        expect(BigInt('0x' + b) - BigInt('0x' + n)).to.equal((1n << BigInt(128 - len)) - 1n);
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 32 }), (v, len) => {
        const hex = u32ToHex(v);
        const n = hexToU32(networkOf(4, hex, len)),
          b = hexToU32(broadcastOf(4, hex, len));
        expect(b - n).to.equal(2 ** (32 - len) - 1);
        expect(n <= v && v <= b).to.equal(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('parseCidrWords accepts and reads exactly what parseCidr does', () => {
    const text = fc.oneof(
      fc
        .tuple(
          fc.oneof(fc.ipV4(), fc.ipV6(), sparseV6, fc.ipV4Extended()),
          fc.option(fc.integer({ min: -1, max: 140 }), { nil: undefined }),
        )
        .map(([a, len]) => (len === undefined ? a : `${a}/${len}`)),
      fc.string({ maxLength: 12 }),
      fc.constantFrom('1.2.3.4/', '1.2.3.4/08', '::/0', '1:2::/1:2', '/8', '1.2.3.4/32/1'),
    );
    const out = new Uint32Array(6);
    fc.assert(
      fc.property(text, (t) => {
        const c = parseCidr(t);
        out.fill(7);
        const enc = parseCidrWords(t, out, 1);
        if (!c) {
          expect(enc, t).to.equal(-1);
          return;
        }
        expect(enc, t).to.equal((c.family << 8) | c.length);
        const hex = [1, 2, 3, 4].map((k) => u32ToHex(out[k])).join('');
        expect(hex, t).to.equal(c.family === 4 ? c.host + '0'.repeat(24) : c.host);
        expect(out[0]).to.equal(7);
        expect(out[5]).to.equal(7);
      }),
      { numRuns: 3000 },
    );
  });

  it('isCanonicalV6 holds for exactly the text formatting writes (networks and broadcasts)', () => {
    // Words biased to zero runs, all-ones groups and the IPv4-mapped prefix.
    const word = fc.oneof(
      fc.constant(0),
      fc.constant(0),
      fc.constant(0xffffffff),
      fc.constant(0xffff),
      fc.integer({ min: 0, max: 0xffffffff }),
    );
    const words = fc.oneof(
      fc.array(word, { minLength: 4, maxLength: 4 }),
      fc.tuple(fc.constant(0), fc.constant(0), fc.constant(0xffff), fc.integer({ min: 0, max: 0xffffffff })),
    );
    // Texts that read as the same address but are not what formatting writes, and near misses.
    const variant = (t: string, k: number, r: number): string => {
      switch (k) {
        case 0:
          return t.toUpperCase();
        case 1:
          return t.replace('::', ':0::').replace(/^:0::/, '0::');
        case 2:
          return t.replace(/(^|:)([0-9a-f]{1,3})(?=:|$)/, '$10$2');
        case 3:
          return t + (r % 2 ? '0' : ':');
        case 4:
          return t.slice(0, Math.max(0, t.length - 1 - (r % 3)));
        case 5:
          return t.replace(/:0:/, '::');
        case 6:
          return t.startsWith('::ffff:') && t.includes('.')
            ? `::ffff:${t
                .slice(7)
                .split('.')
                .map((x) => Number(x).toString(16).padStart(2, '0'))
                .join('')
                .replace(/^(....)/, '$1:')}`
            : t.replace(/[0-9a-f]/, 'g');
        case 7:
          return t.replace('::', r % 2 ? ':0' : '0:');
        default:
          return t;
      }
    };
    const w = new Uint32Array(6);
    fc.assert(
      fc.property(
        words,
        fc.integer({ min: 0, max: 128 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 8 }),
        fc.nat(),
        (ws, len, ones, k, r) => {
          w.set(
            ws.map((x) => x >>> 0),
            1,
          );
          const hex = ws.map((x) => u32ToHex(x >>> 0)).join('');
          const formatted = formatAddress({ family: 6, hex: ones ? broadcastOf(6, hex, len) : networkOf(6, hex, len) });
          const text = variant(formatted, k, r);
          // Inside a longer text too: only [start, end) is read.
          const framed = `x${text}/64`;
          expect(isCanonicalV6(text, 0, text.length, w, 1, len, ones), `${text} (formatted ${formatted})`).to.equal(
            text === formatted,
          );
          expect(isCanonicalV6(framed, 1, 1 + text.length, w, 1, len, ones), framed).to.equal(text === formatted);
        },
      ),
      { numRuns: 5000 },
    );
  });
});
