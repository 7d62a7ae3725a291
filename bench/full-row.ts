// A complete row as a store holds it, for datasets and tests that write rows straight to a store: the registry's
// defaults for what `body` leaves out, the derived fields computed.
import { resource } from '../engine/schema/registry.js';
import type { Row } from '../storage/types.js';

export const ROW_TIME = '2026-01-01T00:00:00.000Z';

export function fullRow(name: string, id: string, body: Record<string, unknown>, now = ROW_TIME): Row {
  const r = resource(name);
  const out: Row = { id, created: now, last_updated: now, version: 1 };
  for (const f of r.fields) {
    if (f.name in out) continue;
    if (f.name in body) out[f.name] = body[f.name];
    else if (f.kind === 'tags') out[f.name] = [];
    else if (f.kind === 'custom_fields') out[f.name] = {};
    else if (f.default !== undefined) out[f.name] = f.default;
    else out[f.name] = f.kind === 'string' && !f.nullable ? '' : null;
  }
  return r.derive ? { ...out, ...r.derive(out) } : out;
}
