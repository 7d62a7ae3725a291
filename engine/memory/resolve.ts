// Resolves foreign-key and tag references of a plan against the tables: ids or text references
// (slug, else name), `null` excluded (the planner turns it into a null node), trees expanded.
import type { FkNode, Plan, ViaNode } from '../plan/nodes.js';
import { resource } from '../schema/registry.js';
import type { IndexedTable } from './indexed-table.js';

export interface TableSource {
  table(name: string): IndexedTable;
}

/** The slots of a table's rows that satisfy a plan: the evaluator's own matching, indexes and all. */
export type RowMatcher = (table: IndexedTable, plan: Plan, resolver: Resolver) => Iterable<number>;

export class Resolver {
  /** Ids per reference node, resolved once per evaluation. */
  private readonly idCache = new Map<FkNode | ViaNode, Set<string>>();
  constructor(
    private readonly tables: TableSource,
    private readonly match: RowMatcher,
  ) {}

  /** Ids a foreign key may hold to satisfy the node: the referenced objects, or the target rows
   * that satisfy a relation's plan. */
  refIds(n: FkNode | ViaNode): Set<string> {
    return n.kind === 'fk' ? this.fkIds(n) : this.viaIds(n);
  }

  private viaIds(n: ViaNode): Set<string> {
    let ids = this.idCache.get(n);
    if (ids) return ids;
    const target = this.tables.table(n.target);
    ids = new Set<string>();
    for (const s of this.match(target, n.plan, this)) ids.add(target.idOf(s));
    this.idCache.set(n, ids);
    return ids;
  }

  /** Ids of the referenced objects (by id, else also by text reference; for trees, with all their
   * descendants). */
  fkIds(n: FkNode): Set<string> {
    let ids = this.idCache.get(n);
    if (ids) return ids;
    const target = this.tables.table(n.target);
    const def = resource(n.target);
    const byRef = n.byId ? null : target.hashOf(def.refField);
    // A UUID names an object wherever it is written; an integer only where ids are asked for
    // (`site_id=17`): NetBox reads `site=17` as a slug (IdStyle.refIsId).
    const asId = n.byId || (!n.refOnly && target.idStyle.name === 'uuid');
    ids = new Set<string>();
    for (const ref of n.refs) {
      if (asId && target.has(ref)) ids.add(ref);
      for (const s of byRef?.get(ref) ?? []) ids.add(target.idOf(s));
    }
    if (n.tree && def.tree) {
      const parents = target.hashOf(def.tree)!;
      const queue = [...ids];
      while (queue.length) {
        for (const s of parents.get(queue.pop()!) ?? []) {
          const id = target.idOf(s);
          if (!ids.has(id)) {
            ids.add(id);
            queue.push(id);
          }
        }
      }
    }
    this.idCache.set(n, ids);
    return ids;
  }

  /**
   * Tag id for a slug or id, or null when no such tag exists. With integer ids a slug goes first
   * (a slug may be digits, as NetBox reads `tag=17`); an id is found only where no slug is.
   */
  tagId(ref: string): string | null {
    const tags = this.tables.table('tag');
    const uuid = tags.idStyle.name === 'uuid';
    if (uuid && tags.has(ref)) return ref;
    const s = tags.hashOf('slug')?.get(ref);
    if (s && s.size) return tags.idOf(s.values().next().value as number);
    return !uuid && tags.has(ref) ? ref : null;
  }
}
