import type { ResourceDef } from '../types.js';
import { groupTreeFields, inventoryBaseFields } from '../common-fields.js';

export const region: ResourceDef = {
  name: 'region',
  app: 'dcim',
  plural: 'regions',
  label: 'Region',
  description: 'A tree of geographic regions',
  refField: 'slug',
  displayField: 'name',
  tree: 'parent',
  fields: [...inventoryBaseFields, ...groupTreeFields('region')],
};
