// References of a CSV / YAML row found by their natural key (a site's slug; a device's name with its site's
// slug) or by id, and the referenced objects an export names, read a chunk at a time.
import { idStyleOf } from '../../engine/schema/id-style.js';
import { resource } from '../../engine/schema/registry.js';
import type { NaturalKey } from '../../engine/transfer/columns.js';
import type { Lookup, RefCells } from '../../engine/transfer/cells.js';
import { missingRefs } from '../../engine/transfer/cells.js';
import type { Column } from '../../engine/transfer/columns.js';
import type { Row, Storage } from '../../storage/types.js';

const keySize = (k: NaturalKey): number => 1 + k.parents.reduce((n, p) => n + keySize(p.key), 0);

/** The one object `key` names with the cells from `at` on, or null (none, several, or a parent not found). */
async function byKey(storage: Storage, key: NaturalKey, cells: readonly string[], at: number): Promise<string | null> {
  const parentIds: string[] = [];
  let pos = at + 1;
  for (const p of key.parents) {
    const id = cells[pos] ? await byKey(storage, p.key, cells, pos) : null;
    if (id === null) return null;
    parentIds.push(id);
    pos += keySize(p.key);
  }
  const found = (await storage.findBy(key.target.name, key.field, cells[at])).filter((o) =>
    key.parents.every((p, i) => o[p.fk] === parentIds[i]),
  );
  return found.length === 1 ? found[0].id : null;
}

/** How the cells named the object, for an error: `slug "ams01"`, `name "r1", site "ams01"`. */
function named(key: NaturalKey | null, field: string, cells: readonly string[]): string {
  if (!key) return `${field} or id "${cells[0]}"`;
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

/** The id of the object a reference's cells name (natural key first, then id; a resource without a unique key
 * by its refField when one object has it), or the error to report. */
export async function resolveRef(storage: Storage, ref: RefCells): Promise<{ id: string } | { error: string }> {
  const target = ref.key?.target;
  if (ref.key) {
    const id = await byKey(storage, ref.key, ref.cells, 0);
    if (id !== null) return { id };
  }
  const t = target ?? resource(ref.field.target!);
  const asId = idStyleOf(t, storage.ids).parse(ref.cells[0]);
  if (asId !== null && (await storage.get(t.name, asId))) return { id: asId };
  if (!ref.key) {
    const found = await storage.findBy(t.name, t.refField, ref.cells[0]);
    if (found.length === 1) return { id: found[0].id };
  }
  return { error: `No ${t.label.toLowerCase()} found with ${named(ref.key, t.refField, ref.cells)}.` };
}

/** Referenced objects an export reads, by resource and id; forgotten past `max` (memory stays bounded). */
export class RefCache {
  private readonly rows = new Map<string, Map<string, Row>>();
  private size = 0;
  constructor(
    private readonly storage: Storage,
    private readonly max = 100_000,
  ) {}

  readonly lookup: Lookup = (resource, id) => this.rows.get(resource)?.get(id);

  /** Reads what the rows' cells name and this cache lacks, level by level (a device, then its site). */
  async load(columns: readonly Column[], rows: readonly Row[]): Promise<void> {
    if (this.size > this.max) {
      this.rows.clear();
      this.size = 0;
    }
    for (let missing = missingRefs(columns, rows, this.lookup); missing.size; ) {
      for (const [resource, ids] of missing) {
        let m = this.rows.get(resource);
        if (!m) this.rows.set(resource, (m = new Map()));
        for (const row of await this.storage.getMany(resource, [...ids])) m.set(row.id, row);
        for (const id of ids) if (!m.has(id)) m.set(id, { id }); // gone meanwhile: named by id
        this.size += ids.size;
      }
      missing = missingRefs(columns, rows, this.lookup);
    }
  }
}
