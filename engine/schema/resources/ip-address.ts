import type { ResourceDef } from '../types.js';
import {
  inventoryBaseFields,
  statusField,
  netKeyed,
  netTextFields,
  descriptionField,
  taggableFields,
  tenantField,
} from '../common-fields.js';

export const ipAddress: ResourceDef = {
  name: 'ip_address',
  app: 'ipam',
  plural: 'ip-addresses',
  label: 'IP address',
  description: 'An IPv4 or IPv6 address with its mask',
  ...netKeyed('address', 'host'),
  // NetBox 3.x/4.x serve and take the interface as `assigned_object_type` / `assigned_object_id`.
  generic: [{ name: 'assigned_object', label: 'Assigned object', fields: ['interface', 'vminterface'] }],
  fields: [
    ...inventoryBaseFields,
    ...netTextFields('address', 'address', 'Address', 'host'),
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
