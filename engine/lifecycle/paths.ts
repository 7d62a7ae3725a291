// Dotted field paths ("order.total") into a guard's context.
// Only own properties are followed, so a path can never reach into an
// object's prototype even if validation were bypassed.

/** Segments that could reach prototypes; refused at validation time. */
export const FORBIDDEN_SEGMENTS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/** Problems with a path as human strings (empty list when the path is fine). */
export function pathProblems(path: string): string[] {
  if (path.length === 0) return ['must be a non-empty dotted path'];
  const problems: string[] = [];
  const segments = path.split('.');
  segments.forEach((segment, i) => {
    if (segment.length === 0) problems.push(`empty segment at position ${i} in "${path}"`);
    else if (FORBIDDEN_SEGMENTS.includes(segment)) {
      problems.push(`forbidden path segment "${segment}" in "${path}"`);
    }
  });
  return problems;
}

export type Lookup = { found: true; value: unknown } | { found: false };

/** Resolve a dotted path; arrays accept non-negative integer segments. */
export function lookupPath(context: unknown, path: string): Lookup {
  let current: unknown = context;
  for (const segment of path.split('.')) {
    if (segment.length === 0 || FORBIDDEN_SEGMENTS.includes(segment)) return { found: false };
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(segment)) return { found: false };
      const index = Number(segment);
      if (index >= current.length) return { found: false };
      current = current[index];
    } else if (typeof current === 'object' && current !== null) {
      if (!Object.prototype.hasOwnProperty.call(current, segment)) return { found: false };
      current = (current as Record<string, unknown>)[segment];
    } else {
      return { found: false };
    }
  }
  return current === undefined ? { found: false } : { found: true, value: current };
}
