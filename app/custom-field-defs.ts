// Custom field definitions as writes and filters need them: kept in this process's memory and
// dropped when the change log shows a definition written (watched-cache.ts: at once for this
// process's own writes, within TOKEN_RECHECK_MS for another's, at once for a read whose
// X-Min-Change-Seq names it). One request sees one set of definitions (its write context holds them).
import { contentType, resource } from '../engine/schema/registry.js';
import { customFieldDefOf } from '../engine/schema/resources/custom-field.js';
import type { CustomFieldDef, ResourceDef } from '../engine/schema/types.js';
import { writeContext } from '../storage/change-log/write-context.js';
import { authority } from '../storage/replica/replicated-storage.js';
import type { Storage } from '../storage/types.js';
import { WatchedCache } from './watched-cache.js';

/** The request-scoped memo key of the custom field definitions. */
const CF_MEMO = 'inventory.custom_fields';
/** Set once a request has read the definitions again for a field it names that they lacked. */
const CF_REREAD = 'inventory.custom_fields_reread';
const CF_TYPES: ReadonlySet<string> = new Set([contentType(resource('custom_field'))]);

/** A write of definitions committed: the rest of its request sees the new ones too (the cache drops itself). */
export function definitionsWritten(): void {
  writeContext()?.memo.delete(CF_MEMO);
}

export class CustomFieldDefs {
  private readonly kept: WatchedCache<CustomFieldDef[]>;
  /** The definitions last read, and their JSON: the same array is handed out while they are the same. */
  private last: { readonly text: string; readonly defs: CustomFieldDef[] } | null = null;
  private readonly byResource = new Map<string, { from: CustomFieldDef[]; defs: CustomFieldDef[] }>();

  constructor(
    private readonly storage: Storage,
    recheckMs: number,
  ) {
    this.kept = new WatchedCache(authority(storage), recheckMs, CF_TYPES, 1);
  }

  /**
   * Every definition. A request naming a field the definitions kept here lack (a filter, a write's
   * custom_fields) reads them again first (`again`), so a field just defined through another
   * process is known at once. The array stays the same object while the definitions read are the
   * same (plan-cache keys reuse it).
   */
  async all(again = false): Promise<CustomFieldDef[]> {
    const scope = writeContext();
    let held = again ? undefined : (scope?.memo.get(CF_MEMO) as CustomFieldDef[] | undefined);
    if (!held) {
      held = await this.kept.get('', () => this.read(), { minSeq: scope?.minSeq, again });
      scope?.memo.set(CF_MEMO, held);
    }
    return held;
  }

  /** The definitions as the database holds them (the authority, never a replica that may lag). */
  private async read(): Promise<CustomFieldDef[]> {
    const { rows } = await authority(this.storage).find(
      'custom_field',
      { kind: 'const', value: true },
      { limit: 1e9, offset: 0, ordering: [{ field: 'name', desc: false }] },
    );
    const text = JSON.stringify(rows);
    if (this.last && text === this.last.text) return this.last.defs;
    const defs = rows.map(customFieldDefOf);
    this.last = { text, defs };
    return defs;
  }

  /** Per resource; the same array while the definitions are unchanged. `named`: fields the request names (as all). */
  async of(r: ResourceDef, named: Iterable<string> = []): Promise<CustomFieldDef[]> {
    const defs = this.forResource(r, await this.all());
    const scope = writeContext();
    for (const name of named) {
      if (defs.some((d) => d.name === name)) continue;
      // Not known here: perhaps defined a moment ago through another process. Once per request.
      if (scope?.memo.get(CF_REREAD)) break;
      scope?.memo.set(CF_REREAD, true);
      return this.forResource(r, await this.all(true));
    }
    return defs;
  }

  private forResource(r: ResourceDef, all: CustomFieldDef[]): CustomFieldDef[] {
    const hit = this.byResource.get(r.name);
    if (hit && hit.from === all) return hit.defs;
    const ct = contentType(r);
    const defs = all.filter((d) => d.content_types.includes(ct));
    this.byResource.set(r.name, { from: all, defs });
    return defs;
  }

  /** Stops following the change log. */
  close(): void {
    this.kept.close();
  }
}

/** The custom field names write bodies give values for. */
export function* customFieldNames(bodies: readonly unknown[]): Iterable<string> {
  for (const b of bodies) {
    const cf = typeof b === 'object' && b !== null ? (b as { custom_fields?: unknown }).custom_fields : undefined;
    if (typeof cf === 'object' && cf !== null) yield* Object.keys(cf);
  }
}
