import type { ResourceDef } from '../types.js';
import {
  assetFields,
  statusField,
  hostStatuses,
  derivePrimaryIp,
  deviceRoleField,
  inventoryBaseFields,
  platformField,
  primaryIpFields,
  taggableFields,
  tenantField,
  locationField,
} from '../common-fields.js';

export const device: ResourceDef = {
  name: 'device',
  app: 'dcim',
  plural: 'devices',
  label: 'Device',
  description: 'A piece of network hardware at a site',
  refField: 'name',
  displayField: 'name',
  uniqueTogether: [['site', 'name']],
  derive: derivePrimaryIp,
  // NetBox's virtual chassis, which the product has no object for (the netbox.netbox interface module reads it).
  servedNull: [{ name: 'virtual_chassis', label: 'Virtual chassis' }],
  fields: [
    ...inventoryBaseFields,
    // NetBox: a device's name may be empty; unique per site only when set (a null never clashes).
    { name: 'name', kind: 'string', label: 'Name', nullable: true, maxLength: 64, search: true },
    { name: 'site', kind: 'fk', counted: true, label: 'Site', target: 'site', required: true, onDelete: 'protect' },
    // NetBox requires a type and a role; here they stay optional so devices written before keep working.
    {
      name: 'device_type',
      kind: 'fk',
      counted: true,
      label: 'Device type',
      target: 'device_type',
      nullable: true,
      onDelete: 'protect',
    },
    // NetBox 3.6 renamed `device_role` to `role` and took the old name beside it through 3.7.
    { ...deviceRoleField, alias: 'device_role' },
    platformField,
    tenantField,
    locationField,
    { name: 'rack', kind: 'fk', counted: true, label: 'Rack', target: 'rack', nullable: true, onDelete: 'set_null' },
    { name: 'position', kind: 'integer', label: 'Position (U)', nullable: true, min: 1, max: 100 },
    {
      name: 'cluster',
      kind: 'fk',
      counted: true,
      label: 'Cluster',
      target: 'cluster',
      nullable: true,
      onDelete: 'set_null',
    },
    ...primaryIpFields,
    statusField(...hostStatuses, ['inventory', 'Inventory'], ['decommissioning', 'Decommissioning']),
    ...assetFields,
    { name: 'comments', kind: 'string', label: 'Comments', maxLength: 2000 },
    ...taggableFields,
  ],
};
