import type { ResourceDef } from '../types.js';
import { inventoryBaseFields, descriptionField, interfaceFields, taggableFields } from '../common-fields.js';
import { INTERFACE_TYPES } from '../interface-types.js';

export const iface: ResourceDef = {
  name: 'interface',
  app: 'dcim',
  plural: 'interfaces',
  label: 'Interface',
  description: 'A network interface of a device',
  refField: 'name',
  displayField: 'name',
  uniqueTogether: [['device', 'name']],
  fields: [
    ...inventoryBaseFields,
    {
      name: 'device',
      kind: 'fk',
      counted: true,
      label: 'Device',
      target: 'device',
      required: true,
      onDelete: 'cascade',
    },
    { name: 'name', kind: 'string', label: 'Name', required: true, maxLength: 64, search: true },
    {
      name: 'type',
      kind: 'choice',
      label: 'Type',
      required: true,
      choices: INTERFACE_TYPES,
    },
    ...interfaceFields,
    descriptionField,
    ...taggableFields,
  ],
};
