// Lifecycle records: machines, entities, history rows and idempotency keys. Stored through the
// same Storage as inventory (so every backend holds them), listed by their own routes.
import type { ResourceDef } from '../types.js';
import type { RowOf } from '../row-types.js';
import { baseFields } from '../common-fields.js';

export const machine = {
  name: 'machine',
  uuidIds: true,
  app: 'lifecycle',
  plural: 'machines',
  label: 'Machine',
  description: 'Versioned state machine definitions',
  refField: 'key',
  displayField: 'key',
  inventory: false,
  uniqueTogether: [['machine_name', 'version']],
  fields: [
    ...baseFields,
    { name: 'key', kind: 'string', label: 'Name@version', unique: true, readOnly: true },
    { name: 'machine_name', kind: 'string', label: 'Machine name', required: true, maxLength: 100 },
    { name: 'version', kind: 'string', label: 'Version', required: true, maxLength: 50 },
    { name: 'definition', kind: 'json', label: 'Definition', required: true },
  ],
} as const satisfies ResourceDef;

export const entity = {
  name: 'entity',
  uuidIds: true,
  app: 'lifecycle',
  plural: 'entities',
  label: 'Entity',
  description: 'Objects held at a state of a machine',
  refField: 'entity_id',
  displayField: 'entity_id',
  inventory: false,
  fields: [
    ...baseFields,
    {
      name: 'entity_id',
      kind: 'string',
      label: 'Entity id',
      required: true,
      unique: true,
      maxLength: 128,
      search: true,
    },
    { name: 'machine_name', kind: 'string', label: 'Machine name', required: true, maxLength: 100, search: true },
    { name: 'machine_version', kind: 'string', label: 'Machine version', required: true, maxLength: 50 },
    { name: 'state', kind: 'string', label: 'State', required: true, maxLength: 100, search: true },
    { name: 'context', kind: 'json', label: 'Context', jsonObject: true },
    { name: 'version', kind: 'integer', label: 'Version', readOnly: true },
  ],
} as const satisfies ResourceDef;

export const history = {
  name: 'history',
  uuidIds: true,
  app: 'lifecycle',
  plural: 'history',
  label: 'History row',
  description: 'One row per entity change',
  refField: 'entity_id',
  displayField: 'trigger',
  inventory: false,
  logged: false, // the entity's own change record tells the event
  fields: [
    ...baseFields,
    { name: 'entity_id', kind: 'string', label: 'Entity id', required: true, maxLength: 128 },
    { name: 'seq', kind: 'integer', label: 'Sequence', required: true },
    { name: 'trigger', kind: 'string', label: 'Trigger', required: true, maxLength: 100 },
    { name: 'source_state', kind: 'string', label: 'Source state', nullable: true, maxLength: 100 },
    { name: 'target_state', kind: 'string', label: 'Target state', required: true, maxLength: 100 },
    // The whole context on the first row (and where a patch cannot say it); else what the event
    // changed, as a merge patch of top-level keys (engine/lifecycle/context-patch.ts).
    { name: 'context', kind: 'json', label: 'Context', nullable: true, jsonObject: true },
    { name: 'context_patch', kind: 'json', label: 'Context change', nullable: true, jsonObject: true },
  ],
} as const satisfies ResourceDef;

/** A stored response for an Idempotency-Key: written in the same batch as the change it answers. */
export const idempotency = {
  name: 'idempotency',
  uuidIds: true,
  app: 'lifecycle',
  plural: 'idempotency-keys',
  label: 'Idempotency key',
  description: 'Responses kept for Idempotency-Key replays',
  refField: 'key',
  displayField: 'key',
  inventory: false,
  logged: false,
  fields: [
    ...baseFields,
    { name: 'key', kind: 'string', label: 'Key', required: true, unique: true, maxLength: 300 },
    { name: 'request_hash', kind: 'string', label: 'Request hash', required: true, maxLength: 64 },
    { name: 'status', kind: 'integer', label: 'Status', required: true },
    { name: 'response', kind: 'json', label: 'Response' },
  ],
} as const satisfies ResourceDef;

export type MachineRow = RowOf<typeof machine>;
export type EntityRow = RowOf<typeof entity>;
export type HistoryRow = RowOf<typeof history>;
export type IdempotencyRow = RowOf<typeof idempotency>;
