// Checks of rows to be written against the stored ones that the stores' own keys do not word as
// NetBox does: a tree's parent link closing a loop, and which unique field clashes with what.
import { uniqueGroups } from '../engine/schema/unique-groups.js';
import type { ResourceDef } from '../engine/schema/types.js';
import type { FieldErrors } from '../engine/schema/validate-input.js';
import type { Row, Storage } from '../storage/types.js';

/**
 * Would the row's parent link close a loop (the row itself, or one of its descendants)? Rows of `batch` as they
 * will be.
 */
export async function wouldLoop(
  storage: Storage,
  r: ResourceDef,
  row: Row,
  batch: ReadonlyMap<string, Row>,
): Promise<boolean> {
  const seen = new Set<unknown>();
  const parentOf = async (id: string) => (batch.get(id) ?? (await storage.get(r.name, id)))?.[r.tree!];
  for (let up = row[r.tree!]; up !== null && up !== undefined && !seen.has(up); up = await parentOf(up as string)) {
    if (up === row.id) return true;
    seen.add(up);
  }
  return false;
}

/**
 * Uniqueness against stored rows and within the batch, reported per field like other errors. A
 * batch that swaps two unique values is refused, as the databases' per-statement checks would.
 */
export async function uniqueClashes(storage: Storage, r: ResourceDef, rows: readonly Row[]): Promise<FieldErrors[]> {
  const out: FieldErrors[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const errs: FieldErrors = {};
    for (const { fields: g, field, message } of uniqueGroups(r)) {
      if (g.some((n) => row[n] === null || row[n] === undefined)) continue;
      const key = JSON.stringify([g, g.map((n) => row[n])]);
      const clash =
        seen.has(key) ||
        (await storage.findBy(r.name, g[0], row[g[0]])).some((o) => o.id !== row.id && g.every((n) => o[n] === row[n]));
      seen.add(key);
      if (clash) (errs[field] ??= []).push(message);
    }
    out.push(errs);
  }
  return out;
}
