import type { ResourceDef } from '../types.js';
import {
  inventoryBaseFields,
  statusField,
  derivedNetFields,
  descriptionField,
  taggableFields,
  tenantField,
} from '../common-fields.js';
import { deriveNetFields } from '../net-derive.js';

export const ipAddress: ResourceDef = {
  name: 'ip_address',
  app: 'ipam',
  plural: 'ip-addresses',
  label: 'IP address',
  description: 'An IPv4 or IPv6 address with its mask',
  refField: 'address',
  displayField: 'address',
  derive: (row) => deriveNetFields(row.address as string, 'host'),
  fields: [
    ...inventoryBaseFields,
    { name: 'address', kind: 'address', label: 'Address', required: true, filter: false },
    ...derivedNetFields('host'),
    statusField(
      ['active', 'Active'],
      ['reserved', 'Reserved'],
      ['deprecated', 'Deprecated'],
      ['dhcp', 'DHCP'],
      ['slaac', 'SLAAC'],
    ),
    { name: 'dns_name', kind: 'string', label: 'DNS name', maxLength: 255, pattern: '^[0-9A-Za-z._-]*$', search: true },
    { name: 'interface', kind: 'fk', label: 'Interface', target: 'interface', nullable: true, onDelete: 'set_null' },
    {
      name: 'vminterface',
      kind: 'fk',
      label: 'VM interface',
      target: 'vminterface',
      nullable: true,
      onDelete: 'set_null',
    },
    tenantField,
    descriptionField,
    ...taggableFields,
  ],
};
