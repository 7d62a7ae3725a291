import type { ResourceDef } from '../types.js';
import { inventoryBaseFields, choices, descriptionField, interfaceFields, taggableFields } from '../common-fields.js';

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
    { name: 'device', kind: 'fk', label: 'Device', target: 'device', required: true, onDelete: 'cascade' },
    { name: 'name', kind: 'string', label: 'Name', required: true, maxLength: 64, search: true },
    {
      name: 'type',
      kind: 'choice',
      label: 'Type',
      required: true,
      choices: choices(
        ['virtual', 'Virtual'],
        ['bridge', 'Bridge'],
        ['lag', 'Link Aggregation Group (LAG)'],
        ['100base-tx', '100BASE-TX (10/100ME)'],
        ['1000base-t', '1000BASE-T (1GE)'],
        ['2.5gbase-t', '2.5GBASE-T (2.5GE)'],
        ['5gbase-t', '5GBASE-T (5GE)'],
        ['10gbase-t', '10GBASE-T (10GE)'],
        ['1000base-x-sfp', 'SFP (1GE)'],
        ['10gbase-x-sfpp', 'SFP+ (10GE)'],
        ['25gbase-x-sfp28', 'SFP28 (25GE)'],
        ['40gbase-x-qsfpp', 'QSFP+ (40GE)'],
        ['100gbase-x-qsfp28', 'QSFP28 (100GE)'],
        ['400gbase-x-qsfpdd', 'QSFP-DD (400GE)'],
        ['other', 'Other'],
      ),
    },
    ...interfaceFields,
    descriptionField,
    ...taggableFields,
  ],
};
