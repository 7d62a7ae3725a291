// Small pieces the WHERE compiler's parts share: the comparison table, OR-ing alternatives, integer
// bounds as JS compares them, and the patterns memory would accept.
import type { Scalar } from '../plan/nodes.js';
import { normalizeDateTime } from '../schema/normalize.js';
import { compileRegex } from '../text/regex.js';
import type { CompareOp, Dialect, Emit } from './dialect.js';
import type { SqlBuilder } from './sql-builder.js';

/** Alias of the queried table in every statement. */
export const ALIAS = 'm';

export const CMP_SQL: Record<'lt' | 'lte' | 'gt' | 'gte', CompareOp> = { lt: '<', lte: '<=', gt: '>', gte: '>=' };

export const lowerScalar = (x: Scalar): Scalar => (typeof x === 'string' ? x.toLowerCase() : x);
export const isCanonicalInstant = (s: string): boolean => normalizeDateTime(s) === s;
const BIGINT_LIMIT = 2 ** 62; // integer comparisons beyond this are decided without the database

export function anyOf(b: SqlBuilder, d: Dialect, parts: readonly Emit[]): void {
  if (parts.length === 0) {
    b.emit(d.FALSE);
    return;
  }
  if (parts.length === 1) {
    parts[0](b);
    return;
  }
  b.emit('(');
  parts.forEach((p, i) => {
    if (i) b.emit(' OR ');
    p(b);
  });
  b.emit(')');
}

/** Integer column `op` a JS number, as JS compares them; 'all' / 'none' when the bound is out of range. */
export function intBound(op: 'lt' | 'lte' | 'gt' | 'gte', x: number): { op: CompareOp; v: number } | 'all' | 'none' {
  if (Number.isNaN(x)) return 'none';
  const below = op === 'lt' || op === 'lte';
  if (x >= BIGINT_LIMIT) return below ? 'all' : 'none';
  if (x <= -BIGINT_LIMIT) return below ? 'none' : 'all';
  const v = op === 'lt' || op === 'gte' ? Math.ceil(x) : Math.floor(x);
  return { op: CMP_SQL[op], v };
}

export function unique<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}

/** Patterns memory would use: those RE2 compiles (invalid ones are skipped, as there). */
export function validPatterns(values: readonly Scalar[], ci: boolean): string[] {
  return unique(values.map(String).filter((p) => typeof compileRegex(p, ci) !== 'string'));
}
