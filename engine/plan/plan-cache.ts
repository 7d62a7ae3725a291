// Parsed + planned queries, cached by resource, schema version and canonical query string,
// so a repeated query costs one hash lookup.
import { LRUCache } from 'lru-cache';
import { canonicalQueryKey, parseQuery } from '../query/index.js';
import type { CustomFieldDef, ResourceDef } from '../schema/types.js';
import type { IdStyle } from '../schema/id-style.js';
import { planQuery, type PlanResult } from './planner.js';

export interface CachedPlan extends PlanResult {
  readonly control: Readonly<Record<string, readonly string[]>>;
}

export class PlanCache {
  private readonly lru: LRUCache<string, CachedPlan>;
  private readonly signatures = new WeakMap<readonly CustomFieldDef[], string>();
  constructor(max = 5000) {
    this.lru = new LRUCache({ max });
  }

  /** The key covers the custom field definitions in force, so a change made anywhere takes effect at once. */
  get(
    r: ResourceDef,
    params: readonly (readonly [string, string])[],
    opts: { strict: boolean; customFields: readonly CustomFieldDef[]; ids?: IdStyle },
  ): CachedPlan {
    let schema = this.signatures.get(opts.customFields);
    if (schema === undefined) {
      schema = opts.customFields.map((d) => `${d.id}:${d.name}:${d.type}:${d.filter_logic}`).join(',');
      this.signatures.set(opts.customFields, schema);
    }
    const key = `${r.name}|${schema}|${opts.strict ? 1 : 0}|${opts.ids?.name ?? 'uuid'}|${canonicalQueryKey(params)}`;
    let hit = this.lru.get(key);
    if (!hit) {
      const parsed = parseQuery(params);
      hit = { ...planQuery(r, parsed, opts), control: parsed.control };
      this.lru.set(key, hit);
    }
    return hit;
  }
}
