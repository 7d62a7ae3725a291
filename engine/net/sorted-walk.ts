// The ordered walk both containment sub-indexes share: live entries in (network, length) order,
// telling the visitor when the key changes. Entries are sorted positions (e >= 0) and pending
// adds not yet sorted in (e = ~p < 0, given in key order); the two runs are merged. Only the key
// comparison differs between the sub-indexes.
export type WalkVisitor = (slot: number, newKey: boolean) => boolean;

export interface WalkEntries {
  /** Sorted positions 0..n-1. */
  readonly n: number;
  /** Pending entries (~p) in ascending key order. */
  readonly pending: readonly number[];
  /** Key order of two entries of either kind. */
  cmp(a: number, b: number): number;
  /** The entry's slot, or -1 for a removed one. */
  slotOf(e: number): number;
}

/** False from fn stops the walk (and is returned). */
export function walkSorted(w: WalkEntries, desc: boolean, fn: WalkVisitor): boolean {
  const { n, pending } = w;
  const step = desc ? -1 : 1;
  let i = desc ? n - 1 : 0,
    k = desc ? pending.length - 1 : 0;
  let prev = 0,
    first = true;
  for (;;) {
    const haveSorted = i >= 0 && i < n,
      havePending = k >= 0 && k < pending.length;
    let e: number;
    if (havePending && (!haveSorted || (desc ? w.cmp(pending[k], i) > 0 : w.cmp(pending[k], i) < 0))) {
      e = pending[k];
      k += step;
    } else if (haveSorted) {
      e = i;
      i += step;
    } else return true;
    const s = w.slotOf(e);
    if (s < 0) continue;
    const newKey = first || w.cmp(e, prev) !== 0;
    first = false;
    prev = e;
    if (!fn(s, newKey)) return false;
  }
}
