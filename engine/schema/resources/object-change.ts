// The change log: one record per object a write touched, written in the same transaction as the
// write, with a gap-free sequence number in commit order (storage assigns `seq`). Read-only over
// the API; Nautobot's field names (NetBox's where they agree).
import type { ResourceDef } from '../types.js';
import type { RowOf } from '../row-types.js';
import { baseFields, changeActionField } from '../common-fields.js';

export const objectChange = {
  name: 'object_change',
  uuidIds: true,
  app: 'extras',
  plural: 'object-changes',
  label: 'Object change',
  description: 'One record per object a write created, changed or deleted, in commit order',
  refField: 'seq',
  displayField: 'object_repr',
  writable: false,
  logged: false,
  alsoAt: ['/api/core/object-changes/'],
  defaultOrder: [{ field: 'seq', desc: true }],
  fields: [
    ...baseFields,
    // Gap-free and commit-ordered: a follower reads `?seq__gt=LAST&ordering=seq`.
    { name: 'seq', kind: 'integer', label: 'Sequence', readOnly: true, unique: true, sequence: true },
    { name: 'time', kind: 'datetime', label: 'Time', readOnly: true, indexed: true },
    { name: 'user_name', kind: 'string', label: 'User name', readOnly: true, maxLength: 200, search: true },
    { name: 'request_id', kind: 'string', label: 'Request id', readOnly: true, maxLength: 128, indexed: true },
    changeActionField,
    {
      name: 'changed_object_type',
      kind: 'string',
      label: 'Changed object type',
      readOnly: true,
      maxLength: 100,
      indexed: true,
    },
    {
      name: 'changed_object_id',
      kind: 'string',
      objectOf: 'changed_object_type',
      label: 'Changed object id',
      readOnly: true,
      maxLength: 128,
      indexed: true,
    },
    { name: 'object_repr', kind: 'string', label: 'Object', readOnly: true, maxLength: 200, search: true },
    {
      name: 'object_data',
      kind: 'json',
      objectOf: 'changed_object_type',
      label: 'Object data',
      readOnly: true,
      nullable: true,
      filter: false,
    },
    {
      name: 'prechange_data',
      kind: 'json',
      objectOf: 'changed_object_type',
      label: 'Data before the change',
      readOnly: true,
      nullable: true,
      filter: false,
    },
    // The webhook delivery the write answered (its X-Netinv-Webhook header), when it named one of this store's.
    {
      name: 'webhook_delivery',
      kind: 'string',
      label: 'Webhook delivery answered',
      readOnly: true,
      nullable: true,
      maxLength: 36,
    },
  ],
} as const satisfies ResourceDef;

export type ObjectChangeRow = RowOf<typeof objectChange>;
