import type { ResourceDef } from '../types.js';
import { inventoryBaseFields, descriptionField, taggableFields } from '../common-fields.js';

export const deviceType: ResourceDef = {
  name: 'device_type',
  app: 'dcim',
  plural: 'device-types',
  label: 'Device type',
  description: 'A make and model of device',
  refField: 'slug',
  displayField: 'model',
  uniqueTogether: [
    ['manufacturer', 'model'],
    ['manufacturer', 'slug'],
  ],
  fields: [
    ...inventoryBaseFields,
    {
      name: 'manufacturer',
      kind: 'fk',
      counted: true,
      label: 'Manufacturer',
      target: 'manufacturer',
      required: true,
      onDelete: 'protect',
    },
    { name: 'model', kind: 'string', label: 'Model', required: true, maxLength: 100, search: true },
    { name: 'slug', kind: 'slug', label: 'Slug', required: true, maxLength: 100, search: true },
    { name: 'part_number', kind: 'string', label: 'Part number', maxLength: 50, search: true },
    { name: 'u_height', kind: 'integer', label: 'Height (U)', default: 1, min: 0, max: 1000 },
    { name: 'is_full_depth', kind: 'boolean', label: 'Is full depth', default: true },
    descriptionField,
    { name: 'comments', kind: 'string', label: 'Comments', maxLength: 2000 },
    ...taggableFields,
  ],
  briefNests: ['manufacturer'], // nb_inventory groups devices by device_type.manufacturer.id
};
