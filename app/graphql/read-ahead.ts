// Read-ahead: once a root list has its rows, the levels below it are read before graphql-js walks them,
// level by level, through the very batches the resolvers use (one getMany per target, one find per nested
// list, for all of a level's parents at once: the same reads, counted the same). The answers are kept per
// (field node, row), so the foreign key and nested list resolvers return plain values: no promise per
// object. A field the read-ahead does not know (tags, counts, generic references, the prefix tree) and
// everything under it keeps the batch path.
import {
  getArgumentValues,
  getNamedType,
  isObjectType,
  type FieldNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
} from 'graphql';
import { collectSubfields } from 'graphql/execution/collectFields.js';
import type { ReverseRef } from '../../engine/schema/reverse-refs.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import type { Row } from '../../storage/types.js';
import type { RequestScope } from './request-scope.js';

/** What a resolver reads beyond its row, for the read-ahead. */
export type Ahead =
  | { readonly kind: 'fk'; readonly field: string; readonly target: ResourceDef }
  | { readonly kind: 'reverse'; readonly ref: ReverseRef; readonly target: string };

/** The batch reads a resolver makes, as the read-ahead calls them (resolvers.ts registers its own). */
export interface AheadReads {
  byId(scope: RequestScope, target: ResourceDef): { loadAll(ids: Iterable<string>): Promise<ReadonlyMap<string, Row>> };
  children(
    scope: RequestScope,
    ref: ReverseRef,
    target: string,
    args: Readonly<Record<string, unknown>>,
    node: FieldNode,
  ): { loadAll(ids: Iterable<string>): Promise<ReadonlyMap<string, readonly Row[]>> };
}

/** The read-ahead of each resolver that has one, by resolver function. */
export const AHEAD = new WeakMap<object, Ahead>();

/** The read-ahead answers of one request: by a field's first node, by its parent row (or the read's error). */
export class AheadAnswers {
  private readonly values = new Map<FieldNode, Map<Row, unknown>>();
  private readonly errors = new Map<FieldNode, unknown>();

  set(node: FieldNode, row: Row, value: unknown): void {
    let m = this.values.get(node);
    if (!m) this.values.set(node, (m = new Map()));
    m.set(row, value);
  }

  fail(node: FieldNode, error: unknown): void {
    this.errors.set(node, error);
  }

  /** Whether the read-ahead answered `node` for `row`; a failed read throws its error (the batch's own). */
  has(node: FieldNode, row: Row): boolean {
    if (this.errors.has(node)) throw this.errors.get(node);
    return this.values.get(node)?.has(row) ?? false;
  }

  get(node: FieldNode, row: Row): unknown {
    return this.values.get(node)!.get(row);
  }
}

interface Level {
  readonly type: GraphQLObjectType;
  readonly nodes: readonly FieldNode[];
  readonly rows: readonly Row[];
}

const EMPTY: readonly Row[] = Object.freeze([]);

/** Reads every level below `rows` (the answer of the list field of `info`) that the read-ahead knows. */
export async function readAhead(
  scope: RequestScope,
  info: GraphQLResolveInfo,
  rows: readonly Row[],
  reads: AheadReads,
) {
  const type = getNamedType(info.returnType);
  if (!isObjectType(type)) return;
  let level: Level[] = [{ type, nodes: info.fieldNodes, rows }];
  while (level.length) {
    const next: Level[] = [];
    const jobs: Promise<void>[] = [];
    for (const { type, nodes, rows } of level) {
      if (!rows.length) continue;
      const fields = type.getFields();
      for (const sub of collectSubfields(info.schema, info.fragments, info.variableValues, type, nodes).values()) {
        const def = fields[sub[0].name.value];
        const ahead = def?.resolve ? AHEAD.get(def.resolve) : undefined;
        const child = def && getNamedType(def.type);
        if (!ahead || !isObjectType(child)) continue;
        const job = readField(scope, info, ahead, def, sub, rows, reads);
        if (job) jobs.push(job.then((got) => void (got.length && next.push({ type: child, nodes: sub, rows: got }))));
      }
    }
    await Promise.all(jobs);
    level = next;
  }
}

/** One field's read for all of a level's rows: the child rows found, for the next level (null: not read). */
function readField(
  scope: RequestScope,
  info: GraphQLResolveInfo,
  ahead: Ahead,
  def: GraphQLField<unknown, unknown>,
  nodes: readonly FieldNode[],
  rows: readonly Row[],
  reads: AheadReads,
): Promise<readonly Row[]> | null {
  const node = nodes[0];
  const answers = scope.ahead;
  if (ahead.kind === 'fk') {
    if (!scope.viewer.canView(ahead.target)) return null;
    const ids = new Set<string>();
    for (const row of rows) {
      const id = row[ahead.field];
      if (typeof id === 'string') ids.add(id);
    }
    return reads
      .byId(scope, ahead.target)
      .loadAll(ids)
      .then(
        (found) => {
          const got = new Set<Row>();
          for (const row of rows) {
            const id = row[ahead.field];
            const obj = typeof id === 'string' ? (found.get(id) ?? null) : null;
            answers.set(node, row, obj);
            if (obj) got.add(obj);
          }
          return [...got];
        },
        (e: unknown) => (answers.fail(node, e), EMPTY),
      );
  }
  if (!scope.viewer.canView(ahead.ref.resource)) return null;
  let args: Record<string, unknown>;
  try {
    args = getArgumentValues(def, node, info.variableValues);
  } catch {
    return null; // graphql-js reports it at the field itself
  }
  const ids = new Set(rows.map((r) => r.id));
  return reads
    .children(scope, ahead.ref, ahead.target, args, node)
    .loadAll(ids)
    .then(
      (groups) => {
        const got: Row[] = [];
        for (const row of rows) {
          const g = groups.get(row.id) ?? EMPTY;
          answers.set(node, row, g);
          for (const x of g) got.push(x);
        }
        return got;
      },
      (e: unknown) => (answers.fail(node, e), EMPTY),
    );
}
