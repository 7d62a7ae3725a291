// A prefix row as loaded straight into a store (no service in between): the network fields derived
// from the text, active, nothing else set. Shared by the benchmarks that load prefixes and the tests
// that load them the same way.
import { randomUUID } from 'node:crypto';
import { deriveNetFields } from '../engine/schema/net-derive.js';
import type { Row } from '../storage/types.js';

/** `stamp`: the id and times (and the version, where the load writes one). */
export function prefixRowWith(prefix: string, stamp: Row): Row {
  return {
    ...stamp,
    prefix,
    ...deriveNetFields(prefix, 'network'),
    status: 'active',
    site: null,
    vlan: null,
    description: '',
    tags: [],
    custom_fields: {},
  };
}

/** A new row at version 1 with a random id, created and last updated at `now`. */
export function prefixRow(prefix: string, now: string): Row {
  return prefixRowWith(prefix, { id: randomUUID(), created: now, last_updated: now, version: 1 });
}
