import type { ResourceDef } from '../types.js';
import { groupTreeFields, inventoryBaseFields, taggableFields } from '../common-fields.js';

export const siteGroup: ResourceDef = {
  name: 'site_group',
  app: 'dcim',
  plural: 'site-groups',
  label: 'Site group',
  description: 'A tree of functional groups of sites (regions group them by place)',
  refField: 'slug',
  displayField: 'name',
  tree: 'parent',
  fields: [...inventoryBaseFields, ...groupTreeFields('site_group'), ...taggableFields],
};
