import type { ResourceDef } from '../types.js';
import { descriptionField, inventoryBaseFields, taggableFields, uniqueNameSlugFields } from '../common-fields.js';

export const clusterGroup: ResourceDef = {
  name: 'cluster_group',
  app: 'virtualization',
  plural: 'cluster-groups',
  label: 'Cluster group',
  description: 'A group of virtualization clusters',
  refField: 'slug',
  displayField: 'name',
  fields: [...inventoryBaseFields, ...uniqueNameSlugFields, descriptionField, ...taggableFields],
};
