// Which rows of the matches a list asks for: the same shape for the memory evaluator, the SQL
// compiler, the storage interface and the HTTP layer.
import type { ResourceDef } from '../schema/types.js';
import { netPartField } from '../schema/registry.js';

export interface OrderKey {
  readonly field: string;
  readonly desc: boolean;
}
export interface Page {
  readonly limit: number;
  readonly offset: number;
  readonly ordering: readonly OrderKey[];
}

/** A list's order when the request names none: networks by (network, length), as Nautobot lists
 * prefixes; everything else by its display field. */
export function defaultOrdering(r: ResourceDef): OrderKey[] {
  if (r.defaultOrder) return [...r.defaultOrder];
  const net = r.fields.find((f) => f.netRole);
  const length = netPartField(r, 'length');
  if (net)
    return length
      ? [
          { field: net.name, desc: false },
          { field: length, desc: false },
        ]
      : [{ field: net.name, desc: false }];
  return [{ field: r.displayField, desc: false }];
}
