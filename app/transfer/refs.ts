// The referenced objects an export names, read a chunk at a time (an import finds its references by
// natural key or id: ref-lookup.ts), and how an import's error names a reference not found.
import type { NaturalKey } from '../../engine/transfer/columns.js';
import type { Lookup, RefCells } from '../../engine/transfer/cells.js';
import { missingRefs, weakKeys, type Refs } from '../../engine/transfer/cells.js';
import type { Column } from '../../engine/transfer/columns.js';
import type { Row, Storage } from '../../storage/types.js';

/** How the cells named the object, for an error: `slug "ams01"`, `name "r1", site "ams01"`. */
function named(key: NaturalKey, cells: readonly string[]): string {
  const parts: string[] = [];
  let pos = 0;
  const walk = (k: NaturalKey, label: string) => {
    if (cells[pos]) parts.push(`${label} "${cells[pos]}"`);
    pos++;
    for (const p of k.parents) walk(p.key, p.column);
  };
  walk(key, key.field);
  return parts.join(', ');
}

/** The error for a reference whose cells name no single object (nor an object by id). */
export function notFound(ref: RefCells): string {
  const t = ref.key.target;
  return `No single ${t.label.toLowerCase()} found with ${named(ref.key, ref.cells)} (nor with that id).`;
}

/** Referenced objects an export reads, by resource and id; forgotten past `max` (memory stays bounded). */
export class RefCache {
  private readonly rows = new Map<string, Map<string, Row>>();
  /** Whether an object's weak key names it alone, by resource and id. */
  private readonly alone = new Map<string, Map<string, boolean>>();
  private size = 0;
  constructor(
    private readonly storage: Storage,
    private readonly max = 100_000,
  ) {}

  readonly lookup: Lookup = (resource, id) => this.rows.get(resource)?.get(id);
  readonly refs: Refs = { lookup: this.lookup, named: (resource, id) => !!this.alone.get(resource)?.get(id) };

  /** Reads what the rows' cells name and this cache lacks, level by level (a device, then its site). */
  async load(columns: readonly Column[], rows: readonly Row[]): Promise<void> {
    if (this.size > this.max) {
      this.rows.clear();
      this.alone.clear();
      this.size = 0;
    }
    const fresh = new Map<string, Row[]>(); // read by this call: only these are checked below
    for (let missing = missingRefs(columns, rows, this.lookup); missing.size;) {
      for (const [resource, ids] of missing) {
        let m = this.rows.get(resource);
        if (!m) this.rows.set(resource, (m = new Map()));
        for (const row of await this.storage.getMany(resource, [...ids])) m.set(row.id, row);
        for (const id of ids) if (!m.has(id)) m.set(id, { id }); // gone meanwhile: named by id
        const read = fresh.get(resource) ?? [];
        for (const id of ids) read.push(m.get(id)!);
        fresh.set(resource, read);
        this.size += ids.size;
      }
      missing = missingRefs(columns, rows, this.lookup);
    }
    for (const [resource, key] of weakKeys(columns)) await this.checkAlone(resource, key, fresh.get(resource) ?? []);
  }

  /** Whether each of `read` is the one object its weak key names (one lookup per value of the key). */
  private async checkAlone(resource: string, key: NaturalKey, read: readonly Row[]): Promise<void> {
    let m = this.alone.get(resource);
    if (!m) this.alone.set(resource, (m = new Map()));
    const byValue = new Map<unknown, Row[]>();
    for (const t of read) {
      if (m.has(t.id) || t[key.field] === null || t[key.field] === undefined) continue;
      const same = byValue.get(t[key.field]);
      if (same) same.push(t);
      else byValue.set(t[key.field], [t]);
    }
    for (const [value, objects] of byValue) {
      const found = await this.storage.findBy(resource, key.field, value);
      for (const t of objects) {
        const same = found.filter((o) => key.parents.every((p) => (o[p.fk] ?? null) === (t[p.fk] ?? null)));
        m.set(t.id, same.length === 1);
      }
    }
  }
}
