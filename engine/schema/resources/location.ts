import type { ResourceDef } from '../types.js';
import {
  descriptionField,
  inventoryBaseFields,
  placeStatusField,
  taggableFields,
  tenantField,
} from '../common-fields.js';

export const location: ResourceDef = {
  name: 'location',
  app: 'dcim',
  plural: 'locations',
  label: 'Location',
  description: 'A tree of places inside a site (buildings, floors, rooms)',
  refField: 'slug',
  displayField: 'name',
  tree: 'parent',
  uniqueTogether: [
    ['site', 'parent', 'name'],
    ['site', 'parent', 'slug'],
  ],
  fields: [
    ...inventoryBaseFields,
    { name: 'name', kind: 'string', label: 'Name', required: true, maxLength: 100, search: true },
    { name: 'slug', kind: 'slug', label: 'Slug', required: true, maxLength: 100, search: true },
    { name: 'site', kind: 'fk', counted: true, label: 'Site', target: 'site', required: true, onDelete: 'cascade' },
    { name: 'parent', kind: 'fk', label: 'Parent', target: 'location', nullable: true, onDelete: 'cascade' },
    placeStatusField,
    tenantField,
    descriptionField,
    ...taggableFields,
  ],
};
