import type { ResourceDef } from '../types.js';
import { descriptionField, inventoryBaseFields, taggableFields, uniqueNameSlugFields } from '../common-fields.js';

export const clusterType: ResourceDef = {
  name: 'cluster_type',
  app: 'virtualization',
  plural: 'cluster-types',
  label: 'Cluster type',
  description: 'A kind of virtualization cluster (VMware vSphere, Proxmox, ...)',
  refField: 'slug',
  displayField: 'name',
  fields: [...inventoryBaseFields, ...uniqueNameSlugFields, descriptionField, ...taggableFields],
};
