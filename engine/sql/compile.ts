// Plan -> SQL. The WHERE clause reproduces engine/memory/predicate.ts exactly: a predicate on a
// null or missing value is false and `not` is the exact complement. Positive contexts may let a
// leaf be SQL NULL (NULL and FALSE both drop the row); under NOT every leaf is compiled
// two-valued ("strict"), with `col IS NOT NULL AND …` guards that keep indexes usable.
import type { CfNode, CmpNode, FkNode, NetNode, Plan, Scalar, TagNode, ViaNode } from '../plan/nodes.js';
import { assertNever } from '../plan/nodes.js';
import type { OrderKey, Page } from '../plan/page.js';
import { normalizeDateTime } from '../schema/normalize.js';
import { compileRegex } from '../text/regex.js';
import type { CompareOp, Dialect, Emit, JsonType } from './dialect.js';
import { likePattern, type LikeShape } from './like.js';
import { isWellFormedHex } from './net-shapes.js';
import { SqlBuilder, type ParamType, type SqlText } from './sql-builder.js';
import { LOWER_UUID, tableModel, type ColumnModel, type TableModel } from './table-model.js';

/** Alias of the queried table in every statement. */
export const ALIAS = 'm';

const CMP_SQL: Record<'lt' | 'lte' | 'gt' | 'gte', CompareOp> = { lt: '<', lte: '<=', gt: '>', gte: '>=' };

const lowerScalar = (x: Scalar): Scalar => (typeof x === 'string' ? x.toLowerCase() : x);
const isCanonicalInstant = (s: string): boolean => normalizeDateTime(s) === s;
const BIGINT_LIMIT = 2 ** 62; // integer comparisons beyond this are decided without the database

function anyOf(b: SqlBuilder, d: Dialect, parts: readonly Emit[]): void {
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
function intBound(op: 'lt' | 'lte' | 'gt' | 'gte', x: number): { op: CompareOp; v: number } | 'all' | 'none' {
  if (Number.isNaN(x)) return 'none';
  const below = op === 'lt' || op === 'lte';
  if (x >= BIGINT_LIMIT) return below ? 'all' : 'none';
  if (x <= -BIGINT_LIMIT) return below ? 'none' : 'all';
  const v = op === 'lt' || op === 'gte' ? Math.ceil(x) : Math.floor(x);
  return { op: CMP_SQL[op], v };
}

/**
 * Tag references already looked up: ref -> the tag's id, null when no tag has it. Given an id,
 * the join table is matched against a value, so the database estimates the tag's rows from its
 * statistics; a sub-select in its place is estimated blind (PostgreSQL guessed ~2,000 rows of
 * 50,000 and chose nested loops for `tag=…&family=4` at 1M prefixes).
 */
export type TagIds = ReadonlyMap<string, string | null>;

class WhereCompiler {
  /** `alias`: the table's alias in the statement; a relation's target is compiled in a sub-select
   * under an alias of its own (one per depth). */
  constructor(
    private readonly d: Dialect,
    private readonly m: TableModel,
    private readonly b: SqlBuilder,
    private readonly tagIds?: TagIds,
    private readonly alias = ALIAS,
    private readonly depth = 0,
  ) {}

  private col(c: ColumnModel | string): string {
    return `${this.alias}.${this.d.quote(typeof c === 'string' ? c : c.name)}`;
  }

  node(p: Plan, strict: boolean): void {
    const { b, d } = this;
    switch (p.kind) {
      case 'const':
        b.emit(p.value ? d.TRUE : d.FALSE);
        return;
      case 'and':
      case 'or': {
        if (p.children.length === 0) {
          b.emit(p.kind === 'and' ? d.TRUE : d.FALSE);
          return;
        }
        if (p.children.length === 1) {
          this.node(p.children[0], strict);
          return;
        }
        b.emit('(');
        p.children.forEach((c, i) => {
          if (i) b.emit(p.kind === 'and' ? ' AND ' : ' OR ');
          this.node(c, strict);
        });
        b.emit(')');
        return;
      }
      case 'not':
        b.emit('NOT (');
        this.node(p.child, true);
        b.emit(')');
        return;
      case 'cmp':
        this.cmp(p, strict);
        return;
      case 'null':
        this.isNull(p.field);
        return;
      case 'fk':
        this.fk(p, strict);
        return;
      case 'tag':
        this.tag(p);
        return;
      case 'net':
        this.net(p);
        return;
      case 'cf':
        this.cf(p);
        return;
      case 'via':
        this.via(p, strict);
        return;
      default:
        assertNever(p);
    }
  }

  /** A leaf on a nullable column: under NOT it must be false, not NULL, when the column is NULL. */
  private guarded(c: ColumnModel, strict: boolean, body: () => void): void {
    if (!strict || c.notNull) {
      body();
      return;
    }
    this.b.emit(`(${this.col(c)} IS NOT NULL AND `);
    body();
    this.b.emit(')');
  }

  private isNull(field: string): void {
    const c = this.m.byField.get(field);
    if (!c) {
      this.b.emit(this.d.TRUE);
      return;
    } // missing on every row
    if (c.notNull) {
      this.b.emit(this.d.FALSE);
      return;
    }
    this.b.emit(`${this.col(c)} IS NULL`);
  }

  // ---- cmp ------------------------------------------------------------------------------------

  private cmp(n: CmpNode, strict: boolean): void {
    const c = this.m.byField.get(n.field);
    if (!c || c.cls === 'opaque') {
      this.b.emit(this.d.FALSE);
      return;
    } // missing, or never a scalar
    if (c.cls === 'json') {
      this.jsonTest((b) => this.d.jsonMember(b, this.col(c), null), n.op, n.ci, n.values, n.valueType);
      return;
    }
    // The derived family of a prefix / address also bounds the network key (Dialect.familyBound).
    // The bound is equivalent to the test on every row, so it is safe under negation too.
    const v = n.values[0];
    const bound =
      c.field.netPart === 'family' && n.op === 'eq' && n.values.length === 1 && (v === 4 || v === 6)
        ? this.d.familyBound(this.m, this.alias, v)
        : null;
    if (bound) this.b.emit('(');
    this.guarded(c, strict, () => anyOf(this.b, this.d, this.columnTests(c, n)));
    if (bound) this.b.emit(` AND ${bound})`);
  }

  /** Alternatives (OR-ed) of one cmp node on a scalar column. */
  private columnTests(c: ColumnModel, n: CmpNode): Emit[] {
    const { d } = this;
    const col = this.col(c);
    const textual = c.cls === 'text' || c.cls === 'uuid' || c.cls === 'datetime';
    const textExpr = c.cls === 'text' ? col : c.cls === 'uuid' || c.cls === 'datetime' ? d.textOf(col, c.cls) : col;
    switch (n.op) {
      case 'eq':
        return this.eqTests(c, n);
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
            // A canonical id orders as its text does: compared on the column, so the key index serves (cursor paging).
            else if (c.cls === 'uuid' && !n.ci && LOWER_UUID.test(x)) b.emit(`${col} ${CMP_SQL[op]} `).param(x, 'uuid');
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

  private eqTests(c: ColumnModel, n: CmpNode): Emit[] {
    const { d } = this;
    const col = this.col(c);
    const strings = n.values.filter((x): x is string => typeof x === 'string');
    const list = (expr: string, values: readonly unknown[], type: ParamType): Emit[] =>
      values.length ? [(b) => d.inList(b, expr, values, type)] : [];
    switch (c.cls) {
      case 'text':
        return n.ci
          ? list(d.lower(col), unique(strings.map((s) => s.toLowerCase())), 'text')
          : list(col, unique(strings), 'text');
      case 'uuid': // ids are lower-case: anything else never equals one
        return list(
          col,
          unique(strings.map((s) => (n.ci ? s.toLowerCase() : s)).filter((s) => LOWER_UUID.test(s))),
          'uuid',
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

  // ---- JSON values: custom fields and json fields ---------------------------------------------

  /** Same tests as valueTest in memory, on a JSON value that may be any type or absent. */
  private jsonTest(
    e: Emit,
    op: CmpNode['op'] | CfNode['op'],
    ci: boolean,
    values: readonly Scalar[],
    valueType: string,
  ): void {
    const { b, d } = this;
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
    const vals = ci ? values.map(lowerScalar) : values;
    let out: Emit[];
    switch (op) {
      case 'eq': {
        const strings = unique(vals.filter((x): x is string => typeof x === 'string'));
        const numbers = unique(vals.filter((x): x is number => typeof x === 'number' && Number.isFinite(x)));
        const bools = unique(vals.filter((x): x is boolean => typeof x === 'boolean')).map(String);
        const inList =
          (expr: Emit, xs: readonly unknown[], type: ParamType): Emit =>
          (bb) =>
            d.inList(bb, bb.render(expr), xs, type);
        out = [
          ...when('string', strings.length ? [inList(strExpr(ci), strings, 'text')] : []),
          ...when('number', numbers.length ? [inList((bb) => d.jsonNumber(bb, e), numbers, d.jsonNumberType)] : []),
          ...when('boolean', bools.length ? [inList(str, bools, 'text')] : []),
        ];
        break;
      }
      case 'lt':
      case 'lte':
      case 'gt':
      case 'gte': {
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
          out = when('number', parts);
        } else {
          out = when(
            'string',
            vals
              .filter((x): x is string => typeof x === 'string')
              .map((x) => (bb: SqlBuilder) => {
                str(bb);
                bb.emit(` ${sqlOp} `).param(x, 'text');
              }),
          );
        }
        break;
      }
      case 'contains':
      case 'startswith':
      case 'endswith': {
        const shape: LikeShape = op;
        out = when(
          'string',
          values.map((x) => {
            const text = ci && typeof x === 'string' ? x.toLowerCase() : String(x);
            return (bb: SqlBuilder) => d.like(bb, bb.render(strExpr(ci)), likePattern(shape, text));
          }),
        );
        break;
      }
      case 'regex':
        out = when(
          'string',
          validPatterns(values, ci).map((p) => (bb: SqlBuilder) => d.regex(bb, bb.render(str), p, ci)),
        );
        break;
      case 'has':
        out = when(
          'array',
          unique(vals).map((x) => (bb: SqlBuilder) => d.jsonArrayHas(bb, e, x)),
        );
        break;
      case 'present': {
        // Any JSON type but null; a missing member has no type.
        const yes: Emit = (bb) => bb.emit(d.TRUE);
        out = (['string', 'number', 'boolean', 'array', 'object'] as const).flatMap((t) => when(t, [yes]));
        break;
      }
      default:
        out = assertNever(op);
    }
    anyOf(b, d, out);
  }

  private cf(n: CfNode): void {
    const c = this.m.byField.get('custom_fields');
    if (!c || c.field.kind !== 'custom_fields') {
      this.b.emit(this.d.FALSE);
      return;
    }
    this.jsonTest((b) => this.d.jsonMember(b, this.col(c), n.name), n.op, n.ci, n.values, n.valueType);
  }

  // ---- references -----------------------------------------------------------------------------

  /** Ids of the referenced objects (by id, else also by text reference), with descendants for trees. */
  private fk(n: FkNode, strict: boolean): void {
    const { b, d } = this;
    const c = this.m.byField.get(n.field);
    const target = tableModel(n.target);
    const ref = target.byField.get(target.resource.refField);
    const ids = unique(n.refs.filter((r) => LOWER_UUID.test(r)));
    const texts = ref && ref.cls === 'text' && !n.byId ? unique(n.refs) : [];
    // Foreign keys are uuid columns; a plan naming another column as fk can never match an id.
    if (!c || c.cls !== 'uuid' || (ids.length === 0 && texts.length === 0)) {
      b.emit(d.FALSE);
      return;
    }
    const t = d.quote(target.table),
      id = d.quote('id');
    const seed = () => {
      b.emit(`SELECT x.${id} FROM ${t} x WHERE `);
      const parts: Emit[] = [];
      if (ids.length) parts.push((bb) => d.inList(bb, `x.${id}`, ids, 'uuid'));
      if (texts.length) parts.push((bb) => d.inList(bb, `x.${d.quote(ref!.name)}`, texts, 'text'));
      anyOf(b, d, parts);
    };
    this.guarded(c, strict, () => {
      b.emit(`${this.col(c)} IN (`);
      const parent = target.resource.tree;
      if (n.tree && parent) {
        b.emit(`WITH RECURSIVE tr (${id}) AS (`);
        seed();
        b.emit(
          ` UNION SELECT ch.${id} FROM ${t} ch JOIN tr ON ch.${d.quote(parent)} = tr.${id}) SELECT tr.${id} FROM tr`,
        );
      } else seed();
      b.emit(')');
    });
  }

  /** The tag is found by id, else by slug (as the memory resolver does), then looked up in the join table. */
  private tag(n: TagNode): void {
    const { b, d, m } = this;
    if (!m.tagsTable) {
      b.emit(d.FALSE);
      return;
    }
    const tag = d.quote(tableModel('tag').table),
      id = d.quote('id'),
      slug = d.quote('slug');
    const known = this.tagIds?.get(n.ref);
    if (known === null) {
      b.emit(d.FALSE);
      return;
    }
    b.emit(
      `EXISTS (SELECT 1 FROM ${d.quote(m.tagsTable)} jt WHERE jt.${d.quote('obj_id')} = ${this.col('id')} AND jt.${d.quote('tag_id')} = `,
    );
    if (known !== undefined) b.param(known, 'uuid');
    else if (LOWER_UUID.test(n.ref)) {
      b.emit(`COALESCE((SELECT x.${id} FROM ${tag} x WHERE x.${id} = `).param(n.ref, 'uuid');
      b.emit(`), (SELECT x.${id} FROM ${tag} x WHERE x.${slug} = `).param(n.ref, 'text').emit('))');
    } else {
      b.emit(`(SELECT x.${id} FROM ${tag} x WHERE x.${slug} = `).param(n.ref, 'text').emit(')');
    }
    b.emit(')');
  }

  private net(n: NetNode): void {
    if (!this.m.net || !isWellFormedHex(n.family, n.network) || !isWellFormedHex(n.family, n.broadcast)) {
      this.b.emit(this.d.FALSE);
      return;
    }
    this.d.net(this.b, this.m, this.alias, n);
  }

  /** The foreign key among the ids of the target rows that satisfy the relation's plan. */
  private via(n: ViaNode, strict: boolean): void {
    const { b, d } = this;
    const c = this.m.byField.get(n.field);
    if (!c || c.cls !== 'uuid') {
      b.emit(d.FALSE);
      return;
    }
    const target = tableModel(n.target),
      alias = `v${this.depth + 1}`;
    this.guarded(c, strict, () => {
      b.emit(`${this.col(c)} IN (SELECT ${alias}.${d.quote('id')} FROM ${d.quote(target.table)} ${alias} WHERE `);
      // Inside the sub-select an unknown (NULL) test only leaves a target row out: not strict.
      new WhereCompiler(d, target, b, this.tagIds, alias, this.depth + 1).node(n.plan, false);
      b.emit(')');
    });
  }
}

function unique<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}

/** Patterns memory would use: those RE2 compiles (invalid ones are skipped, as there). */
function validPatterns(values: readonly Scalar[], ci: boolean): string[] {
  return unique(values.map(String).filter((p) => typeof compileRegex(p, ci) !== 'string'));
}

/** WHERE clause of a plan on a resource; placeholders numbered from 1. */
export function compileWhere(d: Dialect, m: TableModel, plan: Plan, tagIds?: TagIds): SqlText {
  const b = new SqlBuilder(d);
  new WhereCompiler(d, m, b, tagIds).node(plan, false);
  return b.build();
}

/** ORDER BY terms as memory's order.ts sorts: nulls last ascending, addresses numerically, then id. */
export function orderByTerms(d: Dialect, m: TableModel, ordering: readonly OrderKey[]): string[] {
  const terms: string[] = [];
  // Keys an earlier key already decides are dropped (same order, and the SQL then matches an index):
  // an address key orders by (family, address, length), so length and family are decided, and on a
  // prefix every address field orders alike.
  const decided = new Set<string>();
  for (const k of ordering) {
    const c = m.byField.get(k.field);
    if (!c) throw new Error(`cannot order ${m.table} by unknown field ${k.field}`);
    if (decided.has(k.field)) continue;
    const kind = c.field.kind;
    if (kind === 'ip' || kind === 'prefix' || kind === 'address') {
      for (const e of d.netOrder(m, ALIAS, k.field)) terms.push(d.orderTerm(e, k.desc, false));
      decided.add(k.field);
      for (const other of m.byField.values())
        if (other.field.netPart === 'length' || other.field.netPart === 'family') decided.add(other.field.name);
      const sameKey = m.net?.kind === 'prefix' ? ['prefix', 'network', 'broadcast'] : ['address', 'host'];
      if (sameKey.includes(k.field)) for (const f of sameKey) decided.add(f);
    } else if (c.cls === 'json' || c.cls === 'opaque') {
      continue; // lists and objects have no order (the API never offers them for ordering)
    } else {
      terms.push(d.orderTerm(`${ALIAS}.${d.quote(c.name)}`, k.desc, !c.notNull));
      decided.add(k.field);
      // A unique whole number never ties (the change log's seq): nothing after it decides anything,
      // and ORDER BY seq alone is its index's order (with the id after it, every read sorted the table).
      if (c.field.unique && c.notNull && c.field.kind === 'integer') return terms;
    }
  }
  if (!decided.has('id')) terms.push(d.orderTerm(`${ALIAS}.${d.quote('id')}`, false, false));
  return terms;
}

export interface FindStatements {
  readonly count: SqlText;
  readonly page: SqlText;
}

/**
 * Per dialect: everything that does not depend on a request is built once — column lists, ORDER BY
 * text per ordering — and WHERE clauses are cached per plan object (plans are immutable and the
 * plan cache hands out the same object for a repeated query).
 */
export class SqlCompiler {
  private readonly whereCache = new WeakMap<Plan, Map<string, SqlText>>();
  private readonly selects = new Map<string, { select: string; count: string }>();
  private readonly orders = new Map<string, string>();

  constructor(
    readonly d: Dialect,
    private readonly pageValue: (n: number) => unknown = (n) => n,
  ) {}

  model(resource: string): TableModel {
    return tableModel(resource);
  }

  /** `SELECT <columns> FROM <table> AS m` and `SELECT count(*) FROM <table> AS m`. */
  heads(resource: string): { select: string; count: string } {
    let h = this.selects.get(resource);
    if (!h) {
      const m = tableModel(resource);
      const from = ` FROM ${this.d.quote(m.table)} ${ALIAS}`;
      h = {
        select: `SELECT ${m.columns.map((c) => `${ALIAS}.${this.d.quote(c.name)}`).join(', ')}${from}`,
        count: `SELECT count(*) AS n${from}`,
      };
      this.selects.set(resource, h);
    }
    return h;
  }

  where(resource: string, plan: Plan, tagIds?: TagIds): SqlText {
    let byRes = this.whereCache.get(plan);
    if (!byRes) {
      byRes = new Map();
      this.whereCache.set(plan, byRes);
    }
    const key = tagIds?.size ? `${resource}|${[...tagIds].map(([r, id]) => `${r}=${id ?? ''}`).join('|')}` : resource;
    let w = byRes.get(key);
    if (!w) {
      w = compileWhere(this.d, tableModel(resource), plan, tagIds);
      byRes.set(key, w);
    }
    return w;
  }

  /** The ids and slugs of the tags that `refs` name (by id, or by slug), for TagIds. */
  tagLookup(refs: readonly string[]): SqlText {
    const d = this.d,
      b = new SqlBuilder(d),
      ids = refs.filter((r) => LOWER_UUID.test(r));
    const list = (values: readonly string[], type: 'uuid' | 'text') =>
      values.forEach((v, i) => {
        if (i) b.emit(', ');
        b.param(v, type);
      });
    b.emit(
      `SELECT ${d.quote('id')} AS id, ${d.quote('slug')} AS slug FROM ${d.quote(tableModel('tag').table)} WHERE ${d.quote('slug')} IN (`,
    );
    list(refs, 'text');
    b.emit(')');
    if (ids.length) {
      b.emit(` OR ${d.quote('id')} IN (`);
      list(ids, 'uuid');
      b.emit(')');
    }
    return b.build();
  }

  orderBy(resource: string, ordering: readonly OrderKey[]): string {
    const key = `${resource}|${ordering.map((o) => (o.desc ? '-' : '') + o.field).join(',')}`;
    let o = this.orders.get(key);
    if (o === undefined) {
      o = ` ORDER BY ${orderByTerms(this.d, tableModel(resource), ordering).join(', ')}`;
      this.orders.set(key, o);
    }
    return o;
  }

  /** The COUNT and the page SELECT of a find. */
  find(resource: string, plan: Plan, page: Page, tagIds?: TagIds): FindStatements {
    const w = this.where(resource, plan, tagIds);
    const h = this.heads(resource);
    // The page's two parameters follow the WHERE clause's.
    const tail = new SqlBuilder(this.d, w.params.length)
      .emit(`${h.select} WHERE ${w.sql}${this.orderBy(resource, page.ordering)} LIMIT `)
      .param(this.pageValue(page.limit), 'bigint')
      .emit(' OFFSET ')
      .param(this.pageValue(page.offset), 'bigint')
      .build();
    return {
      count: { sql: `${h.count} WHERE ${w.sql}`, params: w.params },
      page: { sql: tail.sql, params: [...w.params, ...tail.params] },
    };
  }
}
