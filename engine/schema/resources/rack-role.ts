import type { ResourceDef } from '../types.js';
import {
  colorField,
  descriptionField,
  inventoryBaseFields,
  taggableFields,
  uniqueNameSlugFields,
} from '../common-fields.js';

export const rackRole: ResourceDef = {
  name: 'rack_role',
  app: 'dcim',
  plural: 'rack-roles',
  label: 'Rack role',
  description: 'The function a rack serves',
  refField: 'slug',
  displayField: 'name',
  fields: [...inventoryBaseFields, ...uniqueNameSlugFields, colorField, descriptionField, ...taggableFields],
};
