// The row a write puts in the database, as the database reads it back: what a replica holds of an
// object its own process just wrote, taken from the write itself rather than read again. Every field
// of the resource, absent ones null (an INSERT binds them as NULL), datetimes as the database gives
// them (ISO 8601, UTC, milliseconds). A change record cannot serve instead: it leaves out hidden
// fields (row versions, key hashes, secrets).
// Pure. The caller passes a copy it owns (the write's objects stay the writer's).
import { rowShape } from '../schema/row-shape.js';
import type { ResourceDef } from '../schema/types.js';

type Row = Record<string, unknown> & { id: string };

/** What the database reads back for a datetime: timestamptz(3) / datetime(3) as ISO text. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface Maker {
  readonly shape: Readonly<Record<string, null>>;
  readonly names: readonly string[];
  readonly datetimes: readonly string[];
}
const makers = new Map<string, Maker>();

function makerOf(r: ResourceDef): Maker {
  let m = makers.get(r.name);
  if (!m) {
    const names = r.fields.map((f) => f.name);
    // The key order of the SQL decoder's rows (one per field, in order): a copy of the shape stays a fast object.
    m = { shape: rowShape(names), names, datetimes: r.fields.filter((f) => f.kind === 'datetime').map((f) => f.name) };
    makers.set(r.name, m);
  }
  return m;
}

/** The row `written` (a create's or update's row) as the database holds it once committed. */
export function rowAsStored(r: ResourceDef, written: Readonly<Record<string, unknown>>): Row {
  const m = makerOf(r);
  const row: Record<string, unknown> = { ...m.shape };
  for (const n of m.names) {
    const v = written[n];
    if (v !== undefined) row[n] = v;
  }
  for (const n of m.datetimes) {
    const v = row[n];
    if (typeof v === 'string' && !ISO_INSTANT.test(v)) row[n] = new Date(v).toISOString();
  }
  return row as Row;
}
