// Tests on a JSON value (custom fields and json fields), the same as valueTest in memory: the value
// may be of any JSON type or absent, and each test applies only to the types it names.
import type { CfNode, CmpNode, Scalar } from '../plan/nodes.js';
import { assertNever } from '../plan/nodes.js';
import type { Dialect, Emit, JsonType } from './dialect.js';
import { likePattern, type LikeShape } from './like.js';
import type { ParamType, SqlBuilder } from './sql-builder.js';
import { anyOf, CMP_SQL, lowerScalar, unique, validPatterns } from './where-parts.js';

type JsonOp = CmpNode['op'] | CfNode['op'];
type RangeOp = 'lt' | 'lte' | 'gt' | 'gte';

/** What every JSON test is built from: the dialect, the value, and its type-guarded alternatives. */
interface JsonValue {
  readonly d: Dialect;
  /** The JSON value (a member of a JSON column). */
  readonly e: Emit;
  readonly ci: boolean;
  /** The value as text, when it is a string. */
  readonly str: Emit;
  strExpr(lowered: boolean): Emit;
  /** `parts` apply only when the value has type `t`; nothing when there are none. */
  when(t: JsonType, parts: readonly Emit[]): Emit[];
}

function jsonValue(d: Dialect, e: Emit, ci: boolean): JsonValue {
  // CASE fixes the evaluation order (no cast of a non-number) and makes the leaf two-valued.
  const when = (t: JsonType, parts: readonly Emit[]): Emit[] =>
    parts.length
      ? [
          (bb: SqlBuilder) => {
            bb.emit('CASE WHEN ');
            d.jsonTypeIs(bb, e, t);
            bb.emit(' THEN ');
            anyOf(bb, d, parts);
            bb.emit(` ELSE ${d.FALSE} END`);
          },
        ]
      : [];
  const str: Emit = (bb) => d.jsonString(bb, e);
  const strExpr = (lowered: boolean): Emit =>
    lowered
      ? (bb) => {
          bb.emit(d.lower(bb.render(str)));
        }
      : str;
  return { d, e, ci, str, strExpr, when };
}

/** Same tests as valueTest in memory, on a JSON value that may be any type or absent. */
export function jsonTest(
  b: SqlBuilder,
  d: Dialect,
  e: Emit,
  op: JsonOp,
  ci: boolean,
  values: readonly Scalar[],
  valueType: string,
): void {
  anyOf(b, d, jsonAlternatives(jsonValue(d, e, ci), op, values, valueType));
}

function jsonAlternatives(j: JsonValue, op: JsonOp, values: readonly Scalar[], valueType: string): Emit[] {
  const vals = j.ci ? values.map(lowerScalar) : values;
  switch (op) {
    case 'eq':
      return jsonEq(j, vals);
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return jsonRange(j, op, vals, valueType);
    case 'contains':
    case 'startswith':
    case 'endswith':
      return jsonLike(j, op, values);
    case 'regex':
      return j.when(
        'string',
        validPatterns(values, j.ci).map((p) => (bb: SqlBuilder) => j.d.regex(bb, bb.render(j.str), p, j.ci)),
      );
    case 'has':
      return j.when(
        'array',
        unique(vals).map((x) => (bb: SqlBuilder) => j.d.jsonArrayHas(bb, j.e, x)),
      );
    case 'present': {
      // Any JSON type but null; a missing member has no type.
      const yes: Emit = (bb) => bb.emit(j.d.TRUE);
      return (['string', 'number', 'boolean', 'array', 'object'] as const).flatMap((t) => j.when(t, [yes]));
    }
    default:
      return assertNever(op);
  }
}

function jsonEq(j: JsonValue, vals: readonly Scalar[]): Emit[] {
  const { d, e, ci, str } = j;
  const strings = unique(vals.filter((x): x is string => typeof x === 'string'));
  const numbers = unique(vals.filter((x): x is number => typeof x === 'number' && Number.isFinite(x)));
  const bools = unique(vals.filter((x): x is boolean => typeof x === 'boolean')).map(String);
  const inList =
    (expr: Emit, xs: readonly unknown[], type: ParamType): Emit =>
    (bb) =>
      d.inList(bb, bb.render(expr), xs, type);
  return [
    ...j.when('string', strings.length ? [inList(j.strExpr(ci), strings, 'text')] : []),
    ...j.when('number', numbers.length ? [inList((bb) => d.jsonNumber(bb, e), numbers, d.jsonNumberType)] : []),
    ...j.when('boolean', bools.length ? [inList(str, bools, 'text')] : []),
  ];
}

function jsonRange(j: JsonValue, op: RangeOp, vals: readonly Scalar[], valueType: string): Emit[] {
  const { d, e, str } = j;
  const sqlOp = CMP_SQL[op];
  if (valueType === 'number') {
    const parts: Emit[] = [];
    for (const x of vals) {
      const v = Number(x);
      if (Number.isNaN(v)) continue;
      if (!Number.isFinite(v)) {
        if (v > 0 === (op === 'lt' || op === 'lte')) parts.push((bb) => bb.emit(d.TRUE));
        continue;
      }
      parts.push((bb) => {
        d.jsonNumber(bb, e);
        bb.emit(` ${sqlOp} `).param(v, d.jsonNumberType);
      });
    }
    return j.when('number', parts);
  }
  return j.when(
    'string',
    vals
      .filter((x): x is string => typeof x === 'string')
      .map((x) => (bb: SqlBuilder) => {
        str(bb);
        bb.emit(` ${sqlOp} `).param(x, 'text');
      }),
  );
}

function jsonLike(j: JsonValue, shape: LikeShape, values: readonly Scalar[]): Emit[] {
  const { d, ci } = j;
  return j.when(
    'string',
    values.map((x) => {
      const text = ci && typeof x === 'string' ? x.toLowerCase() : String(x);
      return (bb: SqlBuilder) => d.like(bb, bb.render(j.strExpr(ci)), likePattern(shape, text));
    }),
  );
}
