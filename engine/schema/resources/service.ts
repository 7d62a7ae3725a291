import type { ResourceDef } from '../types.js';
import { choices, descriptionField, inventoryBaseFields, taggableFields } from '../common-fields.js';

export const service: ResourceDef = {
  name: 'service',
  app: 'ipam',
  plural: 'services',
  label: 'Service',
  description: 'A TCP, UDP or SCTP service a device or virtual machine offers on some ports',
  refField: 'name',
  displayField: 'name',
  fields: [
    ...inventoryBaseFields,
    { name: 'device', kind: 'fk', label: 'Device', target: 'device', nullable: true, onDelete: 'cascade' },
    {
      name: 'virtual_machine',
      kind: 'fk',
      label: 'Virtual machine',
      target: 'virtual_machine',
      nullable: true,
      onDelete: 'cascade',
    },
    { name: 'name', kind: 'string', label: 'Name', required: true, maxLength: 100, search: true },
    {
      name: 'protocol',
      kind: 'choice',
      label: 'Protocol',
      required: true,
      choices: choices(['tcp', 'TCP'], ['udp', 'UDP'], ['sctp', 'SCTP']),
    },
    { name: 'ports', kind: 'json', label: 'Port numbers', required: true },
    descriptionField,
    { name: 'comments', kind: 'string', label: 'Comments', maxLength: 2000 },
    ...taggableFields,
  ],
};
