// OPTIONS metadata of a list path (actions.POST) or an object path (actions.PUT), derived from the
// registry, as REST framework's metadata gives them.
import type { FieldDef, ResourceDef } from '../../engine/schema/types.js';
import type { IdStyleName } from '../../engine/schema/id-style.js';
import { allows, type Principal } from '../../app/tokens.js';
import { permissionFor } from '../auth.js';
import { hasPrefixTree, PREFIX_TREE_FIELDS } from '../prefix-tree.js';
import { genericRefs } from '../../engine/schema/generic-refs.js';

const TYPE_OF_KIND: Record<FieldDef['kind'], string> = {
  uuid: 'string',
  string: 'string',
  slug: 'slug',
  integer: 'integer',
  boolean: 'boolean',
  choice: 'choice',
  fk: 'field',
  tags: 'list',
  custom_fields: 'custom_fields',
  prefix: 'string',
  address: 'string',
  ip: 'string',
  mac: 'string',
  datetime: 'datetime',
  json: 'json',
  string_list: 'list',
};

function fieldMeta(f: FieldDef): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    type: TYPE_OF_KIND[f.kind],
    required: !!f.required,
    read_only: !!f.readOnly,
    label: f.label,
  };
  if (f.writeOnly) meta.write_only = true; // REST framework's write_only: taken, never read back
  if (f.maxLength !== undefined) meta.max_length = f.maxLength;
  if (f.min !== undefined) meta.min_value = f.min;
  if (f.max !== undefined) meta.max_value = f.max;
  // display_name as REST framework's metadata gives it: Ansible's netbox.netbox matches choices by it.
  if (f.choices) meta.choices = f.choices.map((c) => ({ value: c.value, display: c.display, display_name: c.display }));
  return meta;
}

/** A prefix's read-only `parent` and `children` (server/prefix-tree.ts). */
const treeMeta = (r: ResourceDef) =>
  hasPrefixTree(r)
    ? Object.entries(PREFIX_TREE_FIELDS).map(([n, f]) => [n, { ...f.meta, required: false, read_only: true }] as const)
    : [];

/** A generic reference as NetBox's metadata gives it: the content type and id written, the object read. */
const genericMeta = (r: ResourceDef, ids: IdStyleName) =>
  genericRefs(r).flatMap((g) => {
    const meta = (label: string, readOnly: boolean, type = 'field') => ({
      type,
      required: false,
      read_only: readOnly,
      label,
    });
    return [
      [g.typeKey, meta(`${g.label} type`, false)],
      // The id written: NetBox's integer, or the UUID's text in that id style.
      [g.idKey, meta(`${g.label} id`, false, ids === 'integer' ? 'integer' : 'string')],
      [g.name, meta(g.label, true)],
    ] as const;
  });

export function optionsBody(
  r: ResourceDef,
  principal: Principal,
  path: 'list' | 'object' = 'list',
  ids: IdStyleName = 'uuid',
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: `${r.label} ${path === 'list' ? 'List' : 'Instance'}`,
    description: r.description,
    renders: ['application/json'],
    parses: ['application/json'],
  };
  const [method, action] = path === 'list' ? (['POST', 'add'] as const) : (['PUT', 'change'] as const);
  if (allows(principal, permissionFor(r, action)))
    body.actions = {
      [method]: Object.fromEntries([
        ...r.fields.filter((f) => !f.hidden || f.writeOnly).map((f) => [f.name, fieldMeta(f)]),
        ...genericMeta(r, ids),
        ...treeMeta(r),
      ]),
    };
  return body;
}
