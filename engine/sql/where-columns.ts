// Tests of one cmp node on a scalar column (text, uuid, datetime, number, boolean), as the
// alternatives the WHERE compiler OR-s together; JSON columns are where-json.ts's.
import type { CmpNode } from '../plan/nodes.js';
import { assertNever } from '../plan/nodes.js';
import type { Dialect, Emit } from './dialect.js';
import { likePattern, type LikeShape } from './like.js';
import type { ParamType, SqlBuilder } from './sql-builder.js';
import type { ColumnModel } from './table-model.js';
import { idParam, isIdOf, spaceOf } from './id-columns.js';
import { CMP_SQL, intBound, isCanonicalInstant, lowerScalar, unique, validPatterns } from './where-parts.js';

/** Alternatives (OR-ed) of one cmp node on a scalar column; `col` is the column as the statement names it. */
export function columnTests(d: Dialect, col: string, c: ColumnModel, n: CmpNode): Emit[] {
  const textual = c.cls === 'text' || c.cls === 'uuid' || c.cls === 'datetime';
  const textExpr = c.cls === 'text' ? col : c.cls === 'uuid' || c.cls === 'datetime' ? d.textOf(col, c.cls) : col;
  switch (n.op) {
    case 'eq':
      return eqTests(d, col, c, n);
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte': {
      const op = n.op;
      const vals = n.ci ? n.values.map(lowerScalar) : n.values; // memory lower-cases the values only
      if (n.valueType === 'number') {
        if (c.cls !== 'number') return [];
        return vals
          .map((x) => intBound(op, Number(x)))
          .filter((r) => r !== 'none')
          .map((r) => (b: SqlBuilder) => {
            if (r === 'all') b.emit(`${col} IS NOT NULL`);
            else b.emit(`${col} ${r.op} `).param(r.v, 'bigint');
          });
      }
      if (!textual) return [];
      // Non-string bounds would need JS's string/number coercion; the planner never builds them.
      return vals
        .filter((x): x is string => typeof x === 'string')
        .map((x) => (b: SqlBuilder) => {
          if (c.cls === 'datetime' && isCanonicalInstant(x))
            b.emit(`${col} ${CMP_SQL[op]} `).param(d.encode(c, x), 'timestamptz');
          // A canonical id is compared on the column, so the key index serves (cursor paging): a UUID
          // orders as its text does, an integer id as its number (the style's order, id-style.ts).
          else if (c.cls === 'uuid' && !n.ci && isIdOf(d, spaceOf(c), x))
            b.emit(`${col} ${CMP_SQL[op]} `).param(x, idParam(d, spaceOf(c)));
          else b.emit(`${textExpr} ${CMP_SQL[op]} `).param(x, 'text');
        });
    }
    case 'contains':
    case 'startswith':
    case 'endswith': {
      if (!textual) return [];
      const shape: LikeShape = n.op;
      const expr = n.ci ? d.lower(textExpr) : textExpr;
      return n.values.map((x) => {
        const text = n.ci && typeof x === 'string' ? x.toLowerCase() : String(x);
        return (b: SqlBuilder) => d.like(b, expr, likePattern(shape, text));
      });
    }
    case 'regex': {
      if (!textual) return [];
      return validPatterns(n.values, n.ci).map((p) => (b: SqlBuilder) => d.regex(b, textExpr, p, n.ci));
    }
    default:
      return assertNever(n.op);
  }
}

function eqTests(d: Dialect, col: string, c: ColumnModel, n: CmpNode): Emit[] {
  const strings = n.values.filter((x): x is string => typeof x === 'string');
  const list = (expr: string, values: readonly unknown[], type: ParamType): Emit[] =>
    values.length ? [(b) => d.inList(b, expr, values, type)] : [];
  switch (c.cls) {
    case 'text':
      return n.ci
        ? list(d.lower(col), unique(strings.map((s) => s.toLowerCase())), 'text')
        : list(col, unique(strings), 'text');
    case 'uuid': // ids are canonical text (lower-case, decimal): anything else never equals one
      return list(
        col,
        unique(strings.map((s) => (n.ci ? s.toLowerCase() : s)).filter((s) => isIdOf(d, spaceOf(c), s))),
        idParam(d, spaceOf(c)),
      );
    case 'datetime': {
      // Stored text is always the canonical ISO form, so only canonical values can be equal;
      // case-insensitively, a value equals the canonical text it lower-cases from.
      const canon = n.ci
        ? strings
            .map((s) => s.toLowerCase())
            .map((l) => [l, l.toUpperCase()])
            .filter(([l, c]) => isCanonicalInstant(c) && c.toLowerCase() === l)
            .map(([, c]) => c)
        : strings.filter(isCanonicalInstant);
      return list(
        col,
        unique(canon).map((s) => d.encode(c, s)),
        'timestamptz',
      );
    }
    case 'number':
      return list(
        col,
        unique(n.values.filter((x): x is number => typeof x === 'number' && Number.isSafeInteger(x))),
        'bigint',
      );
    case 'boolean':
      return list(
        col,
        unique(n.values.filter((x): x is boolean => typeof x === 'boolean')).map((x) => d.encode(c, x)),
        'boolean',
      );
    default:
      return [];
  }
}
