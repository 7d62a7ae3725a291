import type { ResourceDef } from '../types.js';
import {
  inventoryBaseFields,
  descriptionField,
  taggableFields,
  uniqueNameSlugFields,
  colorField,
} from '../common-fields.js';

export const deviceRole: ResourceDef = {
  name: 'device_role',
  app: 'dcim',
  plural: 'device-roles',
  label: 'Device role',
  description: 'The function a device serves (router, switch, ...)',
  refField: 'slug',
  displayField: 'name',
  fields: [
    ...inventoryBaseFields,
    ...uniqueNameSlugFields,
    colorField,
    { name: 'vm_role', kind: 'boolean', label: 'VM role', default: true },
    descriptionField,
    ...taggableFields,
  ],
};
