// Query parameters that shape an answer rather than filter it (NetBox 4): fields, omit, and those
// clients send that change nothing here (exclude, exclude_m2m, depth). None is ever a filter.
import type { IdStyle } from '../../engine/schema/id-style.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import { idSchema } from './id-schemas.js';
import type { Parameter } from './types.js';

const commaList = { type: 'string', pattern: '^[a-z0-9_,]*$' } as const;

export const SHAPE_PARAMETERS: readonly Parameter[] = [
  {
    name: 'fields',
    in: 'query',
    description:
      'Comma list of the fields each object carries (id and url always); not with brief. An unknown name is a 400.',
    schema: commaList,
  },
  {
    name: 'omit',
    in: 'query',
    description: 'Comma list of fields left out of each object (id and url stay). An unknown name is a 400.',
    schema: commaList,
  },
  {
    name: 'exclude',
    in: 'query',
    description: 'Accepted and ignored (NetBox clients send exclude=config_context; objects here have none).',
    schema: { type: 'string' },
  },
  {
    name: 'exclude_m2m',
    in: 'query',
    description: "Accepted and ignored (NetBox's flag to leave out many-to-many fields).",
    schema: { type: 'boolean' },
  },
  {
    name: 'depth',
    in: 'query',
    description: 'Accepted and ignored: related objects are always nested one level, in brief form.',
    schema: { type: 'integer', minimum: 0 },
  },
];

/** `start=`: an id of the listed resource. */
export const startParameter = (r: ResourceDef, ids: IdStyle): Parameter => ({
  name: 'start',
  in: 'query',
  schema: idSchema(r, ids, { type: 'string', format: 'uuid' }),
  description:
    'Cursor paging: objects in id order from this id on (inclusive); `next` carries the following start, ' +
    '`count` is null. Not with offset or ordering.',
});
