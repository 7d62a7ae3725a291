// Equality index: value -> set of row slots. Null and missing share the `null` key.
export type HashKey = string | number | boolean | null;

export class HashIndex {
  private readonly map = new Map<HashKey, Set<number>>();

  add(key: HashKey, slot: number): void {
    let set = this.map.get(key);
    if (!set) this.map.set(key, (set = new Set()));
    set.add(slot);
  }

  remove(key: HashKey, slot: number): void {
    const set = this.map.get(key);
    if (!set) return;
    set.delete(slot);
    if (set.size === 0) this.map.delete(key);
  }

  get(key: HashKey): ReadonlySet<number> | undefined {
    return this.map.get(key);
  }

  count(key: HashKey): number {
    return this.map.get(key)?.size ?? 0;
  }

  get distinct(): number {
    return this.map.size;
  }
}
