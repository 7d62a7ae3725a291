// Plan -> WHERE clause. It reproduces engine/memory/predicate.ts exactly: a predicate on a null or
// missing value is false and `not` is the exact complement. Positive contexts may let a leaf be SQL
// NULL (NULL and FALSE both drop the row); under NOT every leaf is compiled two-valued ("strict"),
// with `col IS NOT NULL AND …` guards that keep indexes usable.
import type { CfNode, CmpNode, FkNode, NetNode, Plan, TagNode, ViaNode } from '../plan/nodes.js';
import { assertNever } from '../plan/nodes.js';
import type { Dialect, Emit } from './dialect.js';
import { isWellFormedHex } from './net-shapes.js';
import { SqlBuilder, type SqlText } from './sql-builder.js';
import { tableModel, type ColumnModel, type TableModel } from './table-model.js';
import { idParam, isIdOf, spaceStyle } from './id-columns.js';
import { columnTests } from './where-columns.js';
import { jsonTest } from './where-json.js';
import { ALIAS, anyOf, unique } from './where-parts.js';

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
      jsonTest(this.b, this.d, (b) => this.d.jsonMember(b, this.col(c), null), n.op, n.ci, n.values, n.valueType);
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
    this.guarded(c, strict, () => anyOf(this.b, this.d, columnTests(this.d, this.col(c), c, n)));
    if (bound) this.b.emit(` AND ${bound})`);
  }

  // ---- custom fields (JSON values: where-json.ts) ---------------------------------------------

  private cf(n: CfNode): void {
    const c = this.m.byField.get('custom_fields');
    if (!c || c.field.kind !== 'custom_fields') {
      this.b.emit(this.d.FALSE);
      return;
    }
    jsonTest(this.b, this.d, (b) => this.d.jsonMember(b, this.col(c), n.name), n.op, n.ci, n.values, n.valueType);
  }

  // ---- references -----------------------------------------------------------------------------

  /** Ids of the referenced objects (by id, else also by text reference), with descendants for trees. */
  private fk(n: FkNode, strict: boolean): void {
    const { b, d } = this;
    const c = this.m.byField.get(n.field);
    const target = tableModel(n.target);
    const ref = target.byField.get(target.resource.refField);
    // As the memory resolver reads them: a UUID names an object wherever it is written; an integer only
    // where ids are asked for (`site_id=17`), NetBox reading `site=17` as a slug.
    const asId = n.byId || (!n.refOnly && spaceStyle(d, n.target).name === 'uuid');
    const ids = asId ? unique(n.refs.filter((r) => isIdOf(d, n.target, r))) : [];
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
      if (ids.length) parts.push((bb) => d.inList(bb, `x.${id}`, ids, idParam(d, n.target)));
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
    b.emit(`EXISTS (SELECT 1 FROM ${d.quote(m.tagsTable)} jt WHERE jt.${d.quote('obj_id')} = ${this.col('id')}`);
    b.emit(` AND jt.${d.quote('tag_id')} = `);
    if (known !== undefined) b.param(known, idParam(d, 'tag'));
    else if (isIdOf(d, 'tag', n.ref)) {
      // By id, else by slug; in an integer store by slug, else by id (as the memory resolver reads them).
      const byId = (bb: SqlBuilder) =>
        bb.emit(`(SELECT x.${id} FROM ${tag} x WHERE x.${id} = `).param(n.ref, idParam(d, 'tag')).emit(')');
      const bySlug = (bb: SqlBuilder) =>
        bb.emit(`(SELECT x.${id} FROM ${tag} x WHERE x.${slug} = `).param(n.ref, 'text').emit(')');
      const [first, then] = spaceStyle(d, 'tag').name === 'uuid' ? [byId, bySlug] : [bySlug, byId];
      b.emit('COALESCE(');
      first(b);
      b.emit(', ');
      then(b);
      b.emit(')');
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

/** WHERE clause of a plan on a resource; placeholders numbered from 1. */
export function compileWhere(d: Dialect, m: TableModel, plan: Plan, tagIds?: TagIds): SqlText {
  const b = new SqlBuilder(d);
  new WhereCompiler(d, m, b, tagIds).node(plan, false);
  return b.build();
}
