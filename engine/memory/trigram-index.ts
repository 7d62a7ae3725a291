// Case-insensitive substring index: lower-cased trigram -> rows. A query for "contains x"
// (|x| >= 3) intersects the sets of x's trigrams, smallest first; the predicate then confirms.

/**
 * A needle whose rarest trigram is in more than this share of the rows narrows nothing worth the
 * intersection (`name__isw=site-` on sites all named `site-…`): the caller scans or uses another index.
 */
const USEFUL_SHARE = 0.5;

export class TrigramIndex {
  private readonly grams = new Map<string, Set<number>>();
  private texts = 0;

  static gramsOf(text: string): Set<string> {
    const t = text.toLowerCase();
    const out = new Set<string>();
    for (let i = 0; i + 3 <= t.length; i++) out.add(t.slice(i, i + 3));
    return out;
  }

  add(text: unknown, slot: number): void {
    if (typeof text !== 'string') return;
    this.texts++;
    for (const g of TrigramIndex.gramsOf(text)) {
      let set = this.grams.get(g);
      if (!set) this.grams.set(g, (set = new Set()));
      set.add(slot);
    }
  }

  remove(text: unknown, slot: number): void {
    if (typeof text !== 'string') return;
    this.texts--;
    for (const g of TrigramIndex.gramsOf(text)) {
      const set = this.grams.get(g);
      if (!set) continue;
      set.delete(slot);
      if (!set.size) this.grams.delete(g);
    }
  }

  /**
   * Rows whose text may contain `needle` (a superset), or null when the needle is too short to use
   * or too common to narrow the rows.
   */
  candidates(needle: string): Set<number> | null {
    return this.holdingAll([...TrigramIndex.gramsOf(needle)]);
  }

  /**
   * Rows holding every trigram of one of the branches (a regex's literal fragments, regex-grams.ts):
   * a superset of its matches, or null when a branch narrows nothing worth the intersection.
   */
  candidatesAny(branches: readonly (readonly string[])[]): Set<number> | null {
    const parts: Set<number>[] = [];
    for (const b of branches) {
      const got = this.holdingAll(b);
      if (!got) return null;
      parts.push(got);
    }
    if (parts.length === 1) return parts[0];
    const out = new Set<number>();
    for (const p of parts) for (const s of p) out.add(s);
    return out;
  }

  /** Rows holding every one of `grams` (lower-case trigrams), smallest set first. */
  private holdingAll(grams: readonly string[]): Set<number> | null {
    if (!grams.length) return null;
    const sets = grams.map((g) => this.grams.get(g));
    if (sets.some((s) => !s)) return new Set();
    sets.sort((a, b) => a!.size - b!.size);
    if (sets[0]!.size > this.texts * USEFUL_SHARE) return null;
    const out = new Set<number>();
    outer: for (const s of sets[0]!) {
      for (let i = 1; i < sets.length; i++) if (!sets[i]!.has(s)) continue outer;
      out.add(s);
    }
    return out;
  }
}
