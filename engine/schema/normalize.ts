// Value normalisation shared by writes and filters: a filter value is normalised exactly like a
// written one (`mac_address=aa-bb-cc-00-11-22` finds `AA:BB:CC:00:11:22`).

/** Six bytes as `aa:bb:…` / `aa-bb-…` / `aabb…` (one separator throughout), or as `aabb.ccdd.eeff`. */
const MAC_RE =
  /^(?:[0-9A-Fa-f]{2}([:-]?)(?:[0-9A-Fa-f]{2}\1){4}[0-9A-Fa-f]{2}|[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4})$/;

/** MAC in any common spelling -> `AA:BB:CC:00:11:22`, or null when it is not a MAC. */
export function normalizeMac(text: string): string | null {
  const t = text.trim();
  if (!MAC_RE.test(t)) return null;
  const hex = t.replace(/[^0-9A-Fa-f]/g, '').toUpperCase();
  return hex.match(/../g)!.join(':');
}

/** Date or date-time -> ISO-8601 UTC with milliseconds, or null. A bare date means its midnight UTC. */
export function normalizeDateTime(text: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(
    text.trim(),
  );
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', tz = 'Z'] = m;
  const zone = tz.length === 5 ? tz.slice(0, 3) + ':' + tz.slice(3) : tz;
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}${frac.slice(0, 4)}${zone}`;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return null;
  // Reject impossible dates that Date.parse rolls over (2024-02-31).
  if (tz === 'Z' && !new Date(ms).toISOString().startsWith(`${y}-${mo}-${d}`)) return null;
  const out = new Date(ms).toISOString();
  // Years 1 to 9999, as Django and every backend take them (PostgreSQL has no year 0).
  return /^\d{4}-/.test(out) && !out.startsWith('0000') ? out : null;
}

/** Calendar date `YYYY-MM-DD` that exists, or null. */
export function normalizeDate(text: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || text.startsWith('0000')) return null;
  const ms = Date.parse(text + 'T00:00:00Z');
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === text ? text : null;
}

/** Whole number from a JSON number or a decimal string, or null. */
export function toInteger(v: unknown): number | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : null;
  // A sign is allowed either way, as Python's int() (behind Django's IntegerField) allows it.
  if (typeof v === 'string' && /^[+-]?\d{1,15}$/.test(v.trim())) return Number(v.trim());
  return null;
}

const TRUE_WORDS = new Set(['true', 'True', 'TRUE', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', 'False', 'FALSE', '0', 'no', 'off']);
export function toBoolean(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return TRUE_WORDS.has(v) ? true : FALSE_WORDS.has(v) ? false : null;
  if (v === 0 || v === 1) return v === 1;
  return null;
}

export const SLUG_RE = /^[-a-zA-Z0-9_]+$/;
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID in any spelling Python's uuid.UUID reads (dashes or none, braces, `urn:uuid:`, any
 * case) as canonical lower-case 8-4-4-4-12, or null. */
export function normalizeUuid(text: string): string | null {
  const m = /^(?:urn:uuid:)?\{?([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})\}?$/i.exec(
    text.trim(),
  );
  return m ? m.slice(1).join('-').toLowerCase() : null;
}
export const URL_RE = /^(?:[a-z][a-z0-9+.-]*:\/\/)[^\s/?#]+[^\s]*$/i;
