import type { ResourceDef } from '../types.js';
import type { RowOf } from '../row-types.js';
import {
  inventoryBaseFields,
  statusField,
  derivedNetFields,
  descriptionField,
  taggableFields,
  tenantField,
} from '../common-fields.js';
import { deriveNetFields } from '../net-derive.js';

export const prefix = {
  name: 'prefix',
  app: 'ipam',
  plural: 'prefixes',
  label: 'Prefix',
  description: 'An IPv4 or IPv6 network',
  refField: 'prefix',
  displayField: 'prefix',
  derive: (row) => deriveNetFields(row.prefix as string, 'network'),
  fields: [
    ...inventoryBaseFields,
    { name: 'prefix', kind: 'prefix', label: 'Prefix', required: true, filter: false },
    ...derivedNetFields('network'),
    statusField(
      ['container', 'Container'],
      ['active', 'Active'],
      ['reserved', 'Reserved'],
      ['deprecated', 'Deprecated'],
    ),
    { name: 'site', kind: 'fk', counted: true, label: 'Site', target: 'site', nullable: true, onDelete: 'protect' },
    { name: 'vlan', kind: 'fk', label: 'VLAN', target: 'vlan', nullable: true, onDelete: 'set_null' },
    tenantField,
    descriptionField,
    ...taggableFields,
  ],
} as const satisfies ResourceDef;

export type PrefixRow = RowOf<typeof prefix>;
