import type { ResourceDef } from '../types.js';
import { inventoryBaseFields, descriptionField, taggableFields } from '../common-fields.js';

export const deviceRole: ResourceDef = {
  name: 'device_role', app: 'dcim', plural: 'device-roles', label: 'Device role', description: 'The function a device serves (router, switch, ...)',
  refField: 'slug', displayField: 'name',
  fields: [
    ...inventoryBaseFields,
    { name: 'name', kind: 'string', label: 'Name', required: true, unique: true, maxLength: 100, search: true },
    { name: 'slug', kind: 'slug', label: 'Slug', required: true, unique: true, maxLength: 100, search: true },
    { name: 'color', kind: 'string', label: 'Color', maxLength: 6, pattern: '^[0-9a-f]{6}$', default: '9e9e9e' },
    { name: 'vm_role', kind: 'boolean', label: 'VM role', default: true },
    descriptionField,
    ...taggableFields,
  ],
};
