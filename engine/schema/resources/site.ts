import type { ResourceDef } from '../types.js';
import {
  descriptionField,
  inventoryBaseFields,
  placeStatusField,
  taggableFields,
  tenantField,
  uniqueNameSlugFields,
} from '../common-fields.js';

export const site: ResourceDef = {
  name: 'site',
  app: 'dcim',
  plural: 'sites',
  label: 'Site',
  description: 'A physical location holding devices',
  refField: 'slug',
  displayField: 'name',
  fields: [
    ...inventoryBaseFields,
    ...uniqueNameSlugFields,
    placeStatusField,
    {
      name: 'region',
      kind: 'fk',
      counted: true,
      label: 'Region',
      target: 'region',
      nullable: true,
      onDelete: 'set_null',
    },
    {
      name: 'group',
      kind: 'fk',
      counted: true,
      label: 'Group',
      target: 'site_group',
      nullable: true,
      onDelete: 'set_null',
      relationName: 'site_group',
    },
    tenantField,
    { name: 'asn', kind: 'integer', label: 'ASN', nullable: true, min: 1, max: 4294967295 },
    { name: 'facility', kind: 'string', label: 'Facility', maxLength: 50, search: true },
    { name: 'physical_address', kind: 'string', label: 'Physical address', maxLength: 200 },
    descriptionField,
    ...taggableFields,
  ],
};
