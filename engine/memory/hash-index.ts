// Equality index: value -> row slots. Null and missing share the `null` key. A key held by one row
// keeps a bare number (most keys of unique-ish fields), upgraded to a Set at the second row.
export type HashKey = string | number | boolean | null;

export class HashIndex {
  private readonly map = new Map<HashKey, number | Set<number>>();

  add(key: HashKey, slot: number): void {
    const cur = this.map.get(key);
    if (cur === undefined) this.map.set(key, slot);
    else if (typeof cur === 'number') { if (cur !== slot) this.map.set(key, new Set([cur, slot])); }
    else cur.add(slot);
  }

  remove(key: HashKey, slot: number): void {
    const cur = this.map.get(key);
    if (cur === undefined) return;
    if (typeof cur === 'number') { if (cur === slot) this.map.delete(key); return; }
    cur.delete(slot);
    if (cur.size === 1) this.map.set(key, cur.values().next().value as number);
  }

  get(key: HashKey): ReadonlySet<number> | undefined {
    const cur = this.map.get(key);
    return cur === undefined ? undefined : typeof cur === 'number' ? new Set([cur]) : cur;
  }

  count(key: HashKey): number {
    const cur = this.map.get(key);
    return cur === undefined ? 0 : typeof cur === 'number' ? 1 : cur.size;
  }

  get distinct(): number {
    return this.map.size;
  }
}
