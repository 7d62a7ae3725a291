// The ordered walk both containment sub-indexes share: live entries (slot >= 0) in sorted order,
// telling the visitor when the (network, length) key changes. Only the key comparison differs.
export type WalkVisitor = (slot: number, newKey: boolean) => boolean;

/** `sameKey(i, j)`: do sorted positions i and j hold the same (network, length)? False from fn stops the walk. */
export function walkSorted(slot: Int32Array, n: number, desc: boolean, sameKey: (i: number, j: number) => boolean, fn: WalkVisitor): boolean {
  let prev = -1;
  for (let k = 0; k < n; k++) {
    const i = desc ? n - 1 - k : k;
    if (slot[i] < 0) continue;
    const newKey = prev < 0 || !sameKey(i, prev);
    prev = i;
    if (!fn(slot[i], newKey)) return false;
  }
  return true;
}
