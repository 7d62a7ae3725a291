// What an event changed in an entity's context, as a JSON merge patch (RFC 7396) of its top-level
// keys: contexts are merged shallowly (transition.ts), so the top level says it all. History rows
// store these instead of the whole context, which grew storage with the square of the events.
// Merge patches cannot say "set to null" (null means "remove"): a change that sets a key to null
// has no patch, and the row keeps the whole context instead.

type Context = Record<string, unknown>;

const same = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

/** The patch from `before` to `after`, or null when only the whole context can say it. */
export function contextPatch(before: Context, after: Context): Context | null {
  const patch: Context = {};
  for (const [k, v] of Object.entries(after)) {
    if (Object.hasOwn(before, k) && same(before[k], v)) continue;
    if (v === null) return null;
    patch[k] = v;
  }
  for (const k of Object.keys(before)) if (!Object.hasOwn(after, k)) patch[k] = null;
  return patch;
}

/** `before` with a top-level merge patch applied (a new object; `before` is not changed). */
export function applyContextPatch(before: Context, patch: Context): Context {
  const out: Context = { ...before };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}
