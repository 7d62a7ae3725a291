// The registry's order, derived from references: a resource comes after every resource it refers
// to (tables are made, copied and emptied in this order), but through a deferred reference, which
// closes a cycle and is joined once both tables exist. Resources that do not depend on each other
// keep the order they are declared in, so the order (DDL, OpenAPI, menus) is deterministic.
import type { FieldDef, ResourceDef } from './types.js';

/** References that order tables: foreign keys to another resource, not deferred. */
const ordering = (r: ResourceDef): readonly FieldDef[] =>
  r.fields.filter((f) => f.kind === 'fk' && !f.deferred && f.target !== r.name);

/** A path of ordering references from `from` to `to`, as resource names, or null. */
function pathTo(from: string, to: string, byName: ReadonlyMap<string, ResourceDef>): string[] | null {
  const seen = new Set<string>();
  const walk = (name: string): string[] | null => {
    if (name === to) return [name];
    if (seen.has(name)) return null;
    seen.add(name);
    for (const f of ordering(byName.get(name)!)) {
      const rest = walk(f.target!);
      if (rest) return [name, ...rest];
    }
    return null;
  };
  return walk(from);
}

/**
 * The declared resources in dependency order (a depth-first walk in declaration order, each
 * resource after its targets): a list already in dependency order comes back unchanged. A cycle
 * of references none of which is deferred is an error naming its resources; so is a deferred
 * reference that closes no cycle (it would leave its constraint out of the table for nothing).
 */
export function dependencyOrder(declared: readonly ResourceDef[]): ResourceDef[] {
  const byName = new Map(declared.map((r) => [r.name, r]));
  const out: ResourceDef[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (r: ResourceDef, trail: readonly string[]): void => {
    if (state.get(r.name) === 'done') return;
    if (state.get(r.name) === 'visiting') {
      const cycle = [...trail.slice(trail.indexOf(r.name)), r.name].join(' -> ');
      throw new Error(`schema: references form a cycle ${cycle}: mark one of them deferred`);
    }
    state.set(r.name, 'visiting');
    for (const f of ordering(r)) {
      const target = byName.get(f.target ?? '');
      if (!target) throw new Error(`schema: ${r.name}.${f.name} has no known target`);
      visit(target, [...trail, r.name]);
    }
    state.set(r.name, 'done');
    out.push(r);
  };
  for (const r of declared) visit(r, []);
  for (const r of declared)
    for (const f of r.fields)
      if (f.kind === 'fk' && f.deferred && !pathTo(f.target!, r.name, byName))
        throw new Error(`schema: ${r.name}.${f.name} is deferred but closes no cycle: do not mark it deferred`);
  return out;
}
