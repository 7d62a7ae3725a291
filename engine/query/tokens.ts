// Token definitions and the two lexers (one for parameter names, one for values).
// Chevrotain's lexer is first-match, not longest-match: at each offset it tries the
// tokens in array order and takes the first that matches. The order of each
// `allTokens` array is therefore part of the grammar; comments say why.
import { createToken, Lexer } from 'chevrotain';
import type { CustomPatternMatcherReturn, TokenType } from 'chevrotain';

// ---------------------------------------------------------------- key tokens

function isNameChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

// `cf_` marks a custom field only at the very start of the key and only when a
// name follows, so `cf__lt` is field `cf` with lookup `lt`, and `x__cf_y` keeps
// `cf_y` as an ordinary lookup name. A regex cannot see the offset, hence custom.
export const CfPrefix = createToken({
  name: 'CfPrefix',
  pattern: {
    exec: (text: string, offset: number): CustomPatternMatcherReturn | null =>
      offset === 0 && text.startsWith('cf_') && isNameChar(text.charCodeAt(3)) ? ['cf_'] : null,
  },
  start_chars_hint: ['c'],
  line_breaks: false,
});
export const DoubleUnderscore = createToken({ name: 'DoubleUnderscore', pattern: /__/ });
// Single underscores only *between* alphanumeric runs, so `__` is never eaten by a name.
export const Name = createToken({ name: 'Name', pattern: /[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*/ });

// CfPrefix first: Name would otherwise swallow `cf_rack_count` whole.
// DoubleUnderscore and Name cannot overlap (Name never starts or ends with `_`).
export const keyTokens: TokenType[] = [CfPrefix, DoubleUnderscore, Name];

// -------------------------------------------------------------- value tokens

const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/;
const DOTTED_QUAD = /^\d{1,3}(?:\.\d{1,3}){3}$/;

// Number of 16-bit groups in a colon-separated run, or -1 when malformed.
// A dotted quad counts as two groups and may only be the final group.
function groupCount(part: string, mayEndWithV4: boolean): number {
  if (part === '') return 0;
  const groups = part.split(':');
  let n = 0;
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i]!;
    if (HEX_GROUP.test(g)) n += 1;
    else if (mayEndWithV4 && i === groups.length - 1 && DOTTED_QUAD.test(g)) n += 2;
    else return -1;
  }
  return n;
}

// IPv6 text shape (RFC 4291 2.2): eight groups, or fewer around exactly one `::`,
// optionally ending in an embedded dotted quad. Shape only, no range checks.
export function isIpv6Shape(s: string): boolean {
  const gap = s.indexOf('::');
  if (gap < 0) return groupCount(s, true) === 8;
  if (gap !== s.lastIndexOf('::')) return false; // a second `::`, or `:::`
  const head = groupCount(s.slice(0, gap), false);
  const tail = groupCount(s.slice(gap + 2), true);
  return head >= 0 && tail >= 0 && head + tail <= 7;
}

function isAddressChar(c: number): boolean {
  return (c >= 48 && c <= 58) /* 0-9 and ':' */ || c === 46 || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

// End of the maximal run of hex digits, ':' and '.' starting at offset. Taking
// the maximal run (rather than a regex alternation that may stop early) means a
// valid address is matched whole and anything malformed is not matched at all.
function addressRunEnd(text: string, offset: number): number {
  let end = offset;
  while (end < text.length && isAddressChar(text.charCodeAt(end))) end++;
  return end;
}

function matchIpv6(text: string, offset: number): CustomPatternMatcherReturn | null {
  const end = addressRunEnd(text, offset);
  const run = text.slice(offset, end);
  return run.includes(':') && isIpv6Shape(run) ? [run] : null;
}

function matchCidr6(text: string, offset: number): CustomPatternMatcherReturn | null {
  const slash = addressRunEnd(text, offset);
  if (text.charCodeAt(slash) !== 47 /* '/' */) return null;
  let end = slash + 1;
  while (end < text.length && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57) end++;
  if (end === slash + 1) return null;
  const address = text.slice(offset, slash);
  return address.includes(':') && isIpv6Shape(address) ? [text.slice(offset, end)] : null;
}

const ADDRESS_START = [...'0123456789abcdefABCDEF:'];

const D2 = String.raw`\d{2}`;
const DATE = String.raw`\d{4}-${D2}-${D2}`;
const HEX = '[0-9A-Fa-f]';
const V4 = String.raw`\d{1,3}(?:\.\d{1,3}){3}`;

export const Null = createToken({ name: 'Null', pattern: /null/i });
export const BooleanLit = createToken({ name: 'BooleanLit', pattern: /true|false|True|False/ });
export const DateTime = createToken({
  name: 'DateTime',
  pattern: new RegExp(`${DATE}[T ]${D2}:${D2}(?::${D2}(?:\\.\\d+)?)?(?:Z|[+-]${D2}:${D2})?`),
});
export const DateLit = createToken({ name: 'DateLit', pattern: new RegExp(DATE) });
export const Uuid = createToken({
  name: 'Uuid',
  pattern: new RegExp(`${HEX}{8}-${HEX}{4}-${HEX}{4}-${HEX}{4}-${HEX}{12}`),
});
export const Cidr6 = createToken({
  name: 'Cidr6',
  pattern: { exec: matchCidr6 },
  start_chars_hint: ADDRESS_START,
  line_breaks: false,
});
export const Ipv6 = createToken({
  name: 'Ipv6',
  pattern: { exec: matchIpv6 },
  start_chars_hint: ADDRESS_START,
  line_breaks: false,
});
export const Cidr4 = createToken({ name: 'Cidr4', pattern: new RegExp(`${V4}/\\d+`) });
export const Ipv4 = createToken({ name: 'Ipv4', pattern: new RegExp(V4) });
export const Decimal = createToken({ name: 'Decimal', pattern: /-?\d+\.\d+/ });
export const Integer = createToken({ name: 'Integer', pattern: /-?\d+/ });
// Catch-all for everything else, so odd values never raise (slow) lexer errors.
// An explicit range instead of [^] / [\s\S]: complement sets disable Chevrotain's
// first-char optimisation. Without the `u` flag \uFFFF covers every code unit.
export const Text = createToken({ name: 'Text', pattern: /[\u0000-\uFFFF]+/, line_breaks: true });

// Order, earliest wins at a given offset:
// - DateTime before DateLit: a date is a prefix of a datetime.
// - Uuid, DateTime, DateLit, addresses before Decimal/Integer: all may start with
//   digits and Integer would otherwise claim `2024` of `2024-01-02`.
// - Uuid vs Ipv6 cannot clash: a uuid has dashes, an IPv6 run never does; and
//   Uuid vs DateLit cannot either (8 hex vs 4 digits before the first dash).
// - Cidr6 before Ipv6 and Cidr4 before Ipv4: the address is a prefix of the cidr.
// - Ipv6 before Integer/Decimal: `1234::1` starts like an integer; Ipv6 needs a
//   ':' so plain numbers fall through. Null/BooleanLit cannot clash with anything
//   before Text (`n`, `l`, `u`, `r`, `s` are not hex), so they go first: cheapest.
// - Ipv4 before Decimal: `1.2` is a prefix of `1.2.3.4`.
// - Decimal before Integer: `1` is a prefix of `1.5`.
// - Text last: it matches anything.
// A value whose first token does not span it gets further tokens, i.e. kind 'text'.
export const valueTokens: TokenType[] = [
  Null,
  BooleanLit,
  Uuid,
  DateTime,
  DateLit,
  Cidr6,
  Ipv6,
  Cidr4,
  Ipv4,
  Decimal,
  Integer,
  Text,
];

// Offsets only: line/column tracking is wasted work on single-line parameters.
// ensureOptimizations makes construction fail loudly if an edit to the token
// set silently disables the first-char optimisation.
const lexerConfig = { positionTracking: 'onlyOffset', ensureOptimizations: true } as const;
export const KeyLexer = new Lexer(keyTokens, lexerConfig);
export const ValueLexer = new Lexer(valueTokens, lexerConfig);
