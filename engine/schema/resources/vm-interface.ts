import type { ResourceDef } from '../types.js';
import { descriptionField, interfaceFields, inventoryBaseFields, taggableFields } from '../common-fields.js';

export const vmInterface: ResourceDef = {
  name: 'vminterface',
  app: 'virtualization',
  plural: 'interfaces',
  label: 'VM interface',
  description: 'A network interface of a virtual machine',
  refField: 'name',
  displayField: 'name',
  uniqueTogether: [['virtual_machine', 'name']],
  fields: [
    ...inventoryBaseFields,
    {
      name: 'virtual_machine',
      kind: 'fk',
      counted: 'interface_count',
      label: 'Virtual machine',
      target: 'virtual_machine',
      required: true,
      onDelete: 'cascade',
    },
    { name: 'name', kind: 'string', label: 'Name', required: true, maxLength: 64, search: true },
    ...interfaceFields,
    descriptionField,
    ...taggableFields,
  ],
};
