// References of a CSV / YAML row found by their natural key (a site's slug; a device's name with its site's
// slug) or by id, and the referenced objects an export names, read a chunk at a time.
import { idStyleOf } from '../../engine/schema/id-style.js';
import type { NaturalKey } from '../../engine/transfer/columns.js';
import type { Lookup, RefCells } from '../../engine/transfer/cells.js';
import { keySize, missingRefs, weakKeys, type Refs } from '../../engine/transfer/cells.js';
import type { Column } from '../../engine/transfer/columns.js';
import type { Row, Storage } from '../../storage/types.js';

/** The one object `key` names with the cells from `at` on, or null (none, several, or a parent not found). */
async function byKey(storage: Storage, key: NaturalKey, cells: readonly string[], at: number): Promise<string | null> {
  const parentIds: (string | null)[] = [];
  let pos = at + 1;
  for (const p of key.parents) {
    // An empty parent: the object has none (a cluster in no group).
    const id = cells[pos] ? await byKey(storage, p.key, cells, pos) : null;
    if (id === null && cells[pos]) return null;
    parentIds.push(id);
    pos += keySize(p.key);
  }
  const found = (await storage.findBy(key.target.name, key.field, cells[at])).filter((o) =>
    key.parents.every((p, i) => (o[p.fk] ?? null) === parentIds[i]),
  );
  return found.length === 1 ? found[0].id : null;
}

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

/** The id of the object a reference's cells name (its natural key first, then as an id), or the error to report. */
export async function resolveRef(storage: Storage, ref: RefCells): Promise<{ id: string } | { error: string }> {
  const id = await byKey(storage, ref.key, ref.cells, 0);
  if (id !== null) return { id };
  const t = ref.key.target;
  const asId = idStyleOf(t, storage.ids).parse(ref.cells[0]);
  if (asId !== null && (await storage.get(t.name, asId))) return { id: asId };
  return { error: `No single ${t.label.toLowerCase()} found with ${named(ref.key, ref.cells)} (nor with that id).` };
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
    for (let missing = missingRefs(columns, rows, this.lookup); missing.size;) {
      for (const [resource, ids] of missing) {
        let m = this.rows.get(resource);
        if (!m) this.rows.set(resource, (m = new Map()));
        for (const row of await this.storage.getMany(resource, [...ids])) m.set(row.id, row);
        for (const id of ids) if (!m.has(id)) m.set(id, { id }); // gone meanwhile: named by id
        this.size += ids.size;
      }
      missing = missingRefs(columns, rows, this.lookup);
    }
    for (const [resource, key] of weakKeys(columns)) {
      let m = this.alone.get(resource);
      if (!m) this.alone.set(resource, (m = new Map()));
      for (const t of this.rows.get(resource)?.values() ?? []) {
        if (m.has(t.id) || t[key.field] === null || t[key.field] === undefined) continue;
        const same = (await this.storage.findBy(resource, key.field, t[key.field])).filter((o) =>
          key.parents.every((p) => (o[p.fk] ?? null) === (t[p.fk] ?? null)),
        );
        m.set(t.id, same.length === 1);
      }
    }
  }
}
