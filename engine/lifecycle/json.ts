// Small helpers for plain JSON values: shape checks, deep equality, and a
// bounded one-line rendering used in problem and guard descriptions.

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** True for null, booleans, finite numbers, strings, and lists/plain objects of those. */
export function isJsonValue(value: unknown, depth = 0): boolean {
  if (depth > 64) return false; // also stops cycles
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((v) => isJsonValue(v, depth + 1));
  if (isPlainObject(value)) return Object.values(value).every((v) => isJsonValue(v, depth + 1));
  return false;
}

/** Structural equality on JSON values (object key order ignored). */
export function deepEqual(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (depth > 64) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => deepEqual(v, b[i], depth + 1));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keysA = Object.keys(a);
    if (keysA.length !== Object.keys(b).length) return false;
    return keysA.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k], depth + 1));
  }
  return false;
}

/** A deep copy of a JSON value (caller has checked isJsonValue). */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => cloneJson(v)) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      // defineProperty so a "__proto__" key stays a plain data key
      Object.defineProperty(out, k, { value: cloneJson(v), enumerable: true, writable: true, configurable: true });
    }
    return out as T;
  }
  return value;
}

const MAX_RENDER = 80;

/** One-line rendering for messages; long values are cut with an ellipsis. */
export function renderValue(value: unknown): string {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > MAX_RENDER ? `${text.slice(0, MAX_RENDER - 1)}…` : text;
}
