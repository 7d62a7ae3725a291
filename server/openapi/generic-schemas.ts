// JSON Schemas of a resource's generic references (NetBox's `assigned_object_type` / `_id` / the object,
// engine/schema/generic-refs.ts), as read and as written.
import { genericRefs, type GenericRef } from '../../engine/schema/generic-refs.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import { briefName, UUID_PATTERN } from './field-schemas.js';
import { idSchema, INTEGER_ID_WRITTEN } from './id-schemas.js';
import type { IdStyle } from '../../engine/schema/id-style.js';
import { orNull, ref, type JsonSchema } from './types.js';

const typeSchema = (g: GenericRef): JsonSchema => ({
  title: `${g.label} type`,
  type: ['string', 'null'],
  enum: [...g.byType.keys(), null],
  description: g.fields.map((f) => `\`${g.typeOf.get(f.name)}\`: its \`${f.name}\``).join(', '),
});

const uuid: JsonSchema = { type: 'string', format: 'uuid', pattern: UUID_PATTERN };
/** The id of one of the reference's objects (all of them share the store's style). */
const idOf = (g: GenericRef, ids: IdStyle, integer?: JsonSchema): JsonSchema =>
  idSchema(g.fields[0].target!, ids, uuid, integer);

/** Keys an object carries for its generic references. */
export function genericReadProps(r: ResourceDef, ids: IdStyle): Record<string, JsonSchema> {
  const props: Record<string, JsonSchema> = {};
  for (const g of genericRefs(r)) {
    props[g.typeKey] = typeSchema(g);
    props[g.idKey] = {
      title: `${g.label} id`,
      ...orNull(idOf(g, ids)),
      description: `the id of the ${g.typeKey} object`,
    };
    props[g.name] = {
      title: g.label,
      anyOf: [...g.fields.map((f) => ref(briefName(f.target!))), { type: 'null' }],
      readOnly: true,
    };
  }
  return props;
}

/** Keys a write may give for its generic references: the type and the id, both or neither (null clears). */
export function genericWriteProps(r: ResourceDef, ids: IdStyle): Record<string, JsonSchema> {
  const props: Record<string, JsonSchema> = {};
  for (const g of genericRefs(r)) {
    const fks = g.fields.map((f) => `\`${f.name}\``).join(' / ');
    props[g.typeKey] = {
      ...typeSchema(g),
      description: `with ${g.idKey}: sets that fk (${fks}) and clears the others`,
    };
    const id = idOf(g, ids, INTEGER_ID_WRITTEN);
    props[g.idKey] = {
      title: `${g.label} id`,
      anyOf: [id, { type: 'object', required: ['id'], properties: { id } }, { type: 'null' }],
      description: `with ${g.typeKey}: the id of an object of that type`,
    };
    props[g.name] = { readOnly: true, description: 'ignored when written' };
  }
  return props;
}
