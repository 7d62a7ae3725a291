// Entry point: query parameter pairs -> ParsedQuery. Splits keys and classifies
// values only; which fields/lookups exist is the planner's business.
import type { TokenType } from 'chevrotain';
import type { FilterTerm, ParseError, ParsedQuery, ParsedValue, ValueKind } from './ast.js';
import { keyParser } from './parser.js';
import { keyCstToAst, type ParsedKey } from './to-ast.js';
import * as t from './tokens.js';

export type { ParsedKey } from './to-ast.js';

export const CONTROL_PARAMS: ReadonlySet<string> = new Set([
  'limit',
  'offset',
  'ordering',
  'brief',
  'format',
  'include',
  'depth',
  'api_version',
  'exclude_m2m',
  'explain',
  'fields',
  'omit',
  'exclude',
  'start',
]);

// Pagination only selects a window of the same result, so pages share a plan.
const PAGINATION_PARAMS: ReadonlySet<string> = new Set(['limit', 'offset', 'start']);

const MAX_VALUE_LENGTH = 4096;
const UNKNOWN_FIELD = 'Unknown filter field';
const VALUE_TOO_LONG = `Ensure this value has at most ${MAX_VALUE_LENGTH} characters.`;

const KIND_BY_TOKEN: ReadonlyMap<TokenType, ValueKind> = new Map<TokenType, ValueKind>([
  [t.Null, 'null'],
  [t.BooleanLit, 'boolean'],
  [t.Uuid, 'uuid'],
  [t.DateTime, 'datetime'],
  [t.DateLit, 'date'],
  [t.Cidr6, 'cidr6'],
  [t.Ipv6, 'ipv6'],
  [t.Cidr4, 'cidr4'],
  [t.Ipv4, 'ipv4'],
  [t.Decimal, 'decimal'],
  [t.Integer, 'integer'],
  [t.Text, 'text'],
]);

// Kind of a raw value by shape: the kind of the single token spanning it, else 'text'.
export function classifyValue(raw: string): ValueKind {
  if (raw === '') return 'text';
  const { tokens } = t.ValueLexer.tokenize(raw);
  if (tokens.length !== 1 || tokens[0]!.image.length !== raw.length) return 'text';
  return KIND_BY_TOKEN.get(tokens[0]!.tokenType) ?? 'text';
}

export type KeyResult =
  { readonly key: ParsedKey; readonly error: null } | { readonly key: null; readonly error: ParseError };

function keyError(param: string, offset: number): KeyResult {
  return { key: null, error: { param, offset, message: UNKNOWN_FIELD } };
}

// Splits one filter parameter name into (field, cf, lookup).
export function parseKey(param: string): KeyResult {
  const lexed = t.KeyLexer.tokenize(param);
  if (lexed.errors.length > 0) return keyError(param, lexed.errors[0]!.offset);
  keyParser.input = lexed.tokens;
  const cst = keyParser.key();
  const parseErr = keyParser.errors[0];
  if (parseErr !== undefined) {
    // At end of input Chevrotain reports an EOF token whose offset is NaN.
    const at = parseErr.token.startOffset;
    return keyError(param, Number.isFinite(at) ? at : param.length);
  }
  return { key: keyCstToAst(cst), error: null };
}

interface MutableTerm extends FilterTerm {
  readonly values: ParsedValue[];
}

// Chevrotain's tokenize() has a fixed cost of ~0.6 µs per call, so parseQuery
// memoises per distinct string. Keys come from a small vocabulary (fields x
// lookups) and common values repeat; results are immutable, so sharing is safe.
// Reset on overflow instead of LRU: simpler, and the working set refills at once.
const MEMO_LIMIT = 4096;
const MEMO_MAX_LENGTH = 128; // don't pin long one-off strings in memory
const keyMemo = new Map<string, KeyResult>();
const kindMemo = new Map<string, ValueKind>();

function memoParseKey(param: string): KeyResult {
  if (param.length > MEMO_MAX_LENGTH) return parseKey(param);
  let r = keyMemo.get(param);
  if (r === undefined) {
    r = parseKey(param);
    if (keyMemo.size >= MEMO_LIMIT) keyMemo.clear();
    keyMemo.set(param, r);
  }
  return r;
}

function memoClassify(raw: string): ValueKind {
  if (raw.length > MEMO_MAX_LENGTH) return classifyValue(raw);
  let kind = kindMemo.get(raw);
  if (kind === undefined) {
    kind = classifyValue(raw);
    if (kindMemo.size >= MEMO_LIMIT) kindMemo.clear();
    kindMemo.set(raw, kind);
  }
  return kind;
}

export function parseQuery(params: Iterable<readonly [string, string]>): ParsedQuery {
  const terms = new Map<string, MutableTerm>();
  const control: Record<string, string[]> = {};
  const errors: ParseError[] = [];
  const badKeys = new Set<string>(); // report each malformed name once, however often repeated
  for (const [param, raw] of params) {
    if (CONTROL_PARAMS.has(param)) {
      (control[param] ??= []).push(raw);
      continue;
    }
    let term = terms.get(param);
    if (term === undefined) {
      if (badKeys.has(param)) continue;
      const r = memoParseKey(param);
      if (r.error !== null) {
        badKeys.add(param);
        errors.push(r.error);
        continue;
      }
      term = { param, field: r.key.field, cf: r.key.cf, lookup: r.key.lookup, values: [] };
      terms.set(param, term);
    }
    if (raw.length > MAX_VALUE_LENGTH) {
      errors.push({ param, offset: MAX_VALUE_LENGTH, message: VALUE_TOO_LONG });
      continue;
    }
    term.values.push({ raw, kind: memoClassify(raw) });
  }
  // A term whose every value was rejected carries nothing for the planner.
  const out: FilterTerm[] = [];
  for (const term of terms.values()) if (term.values.length > 0) out.push(term);
  return { terms: out, control, errors };
}

// encodeURIComponent throws on lone surrogates (possible in JS strings, never
// from URLSearchParams). Encode them as %uXXXX instead: unambiguous, because a
// literal '%' is always encoded as %25.
function encode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    let out = '';
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      const next = s.charCodeAt(i + 1);
      if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        out += encodeURIComponent(s.slice(i, i + 2));
        i++;
      } else if (c >= 0xd800 && c <= 0xdfff) {
        out += '%u' + c.toString(16).toUpperCase();
      } else {
        out += encodeURIComponent(s[i]!);
      }
    }
    return out;
  }
}

// Stable cache key. Names sorted; limit/offset dropped. Filter values are sorted
// because repeated filter values are combined commutatively (OR, or AND for
// tags), so their order cannot change the plan. Control values keep their order:
// Django-style readers take the last of a repeated control param (`ordering`),
// so sorting them could map two different plans to one key.
export function canonicalQueryKey(params: Iterable<readonly [string, string]>): string {
  const byName = new Map<string, string[]>();
  for (const [name, value] of params) {
    if (PAGINATION_PARAMS.has(name)) continue;
    const values = byName.get(name);
    if (values === undefined) byName.set(name, [value]);
    else values.push(value);
  }
  const parts: string[] = [];
  // Default sort compares UTF-16 code units: locale-independent, deterministic.
  for (const name of [...byName.keys()].sort()) {
    const values = byName.get(name)!;
    if (!CONTROL_PARAMS.has(name)) values.sort();
    const encodedName = encode(name);
    for (const value of values) parts.push(`${encodedName}=${encode(value)}`);
  }
  return parts.join('&');
}
