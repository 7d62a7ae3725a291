// The schemas of ids in the document: each place keeps the UUID form it has always shown when the
// resource's ids are UUIDs (a uuid store, or a resource with `uuidIds`), and shows a JSON number
// when they are integers (engine/schema/id-style.ts).
import { idStyleOf, type IdStyle } from '../../engine/schema/id-style.js';
import { resource } from '../../engine/schema/registry.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import type { JsonSchema } from './types.js';

export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** An integer id as answers carry it: a positive whole number a JSON number holds exactly. */
export const INTEGER_ID: JsonSchema = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
/** An integer id as a write may give it: the number, or its decimal text (INTEGER_IDS.fromJson). */
export const INTEGER_ID_WRITTEN: JsonSchema = {
  type: ['integer', 'string'],
  minimum: 1,
  maximum: Number.MAX_SAFE_INTEGER,
  pattern: '^[1-9][0-9]{0,15}$',
};

const styleOf = (r: ResourceDef | string, ids: IdStyle): IdStyle =>
  idStyleOf(typeof r === 'string' ? resource(r) : r, ids);

/** Whether the ids of `r` are integers in a store of style `ids`. */
export const integerIds = (r: ResourceDef | string, ids: IdStyle): boolean => styleOf(r, ids).name === 'integer';

/** The id of `r`: `uuid` (this place's UUID schema) or `integer` as the resource's ids are. */
export const idSchema = (r: ResourceDef | string, ids: IdStyle, uuid: JsonSchema, integer = INTEGER_ID): JsonSchema =>
  integerIds(r, ids) ? integer : uuid;
