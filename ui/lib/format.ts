// How values of the API read in a cell: choices by label, foreign keys by display, times in UTC.

export function formatTime(iso: unknown): string {
  if (!iso) return '';
  const d = new Date(String(iso));
  return Number.isNaN(d.getTime())
    ? String(iso)
    : d
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, 'Z');
}

export function pretty(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;

/** Plain text of one field value. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) return value.map(cellText).join(', ');
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if ('label' in o && 'value' in o) return String(o.label);
    if ('display' in o) return String(o.display);
    if ('name' in o) return String(o.name);
    return JSON.stringify(o);
  }
  if (typeof value === 'string' && TIME.test(value)) return formatTime(value);
  return String(value);
}
