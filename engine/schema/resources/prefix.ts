import type { ResourceDef } from '../types.js';
import type { RowOf } from '../row-types.js';
import {
  inventoryBaseFields,
  statusField,
  netKeyed,
  netTextFields,
  descriptionField,
  taggableFields,
  tenantField,
} from '../common-fields.js';

export const prefix = {
  name: 'prefix',
  app: 'ipam',
  plural: 'prefixes',
  label: 'Prefix',
  description: 'An IPv4 or IPv6 network',
  ...netKeyed('prefix', 'network'),
  fields: [
    ...inventoryBaseFields,
    ...netTextFields('prefix', 'prefix', 'Prefix', 'network'),
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
