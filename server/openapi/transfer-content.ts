// The CSV and YAML forms of a list in the document, from the same columns the export and import use
// (engine/transfer/columns.ts, from the registry): `?format=` on the list, text/csv and application/yaml answers
// beside the JSON page, and text/csv and application/yaml bodies of a POST (an import, all or nothing).
import { columnsOf } from '../../engine/transfer/columns.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import type { JsonSchema, Parameter, Response } from './types.js';
import { json, ref } from './types.js';

export const FORMAT_PARAMETER: Parameter = {
  name: 'format',
  in: 'query',
  required: false,
  schema: { type: 'string', enum: ['json', 'csv', 'yaml'] },
  description:
    '`csv` or `yaml` (or `Accept: text/csv` / `application/yaml`): the whole filtered list in its order, not a ' +
    "page, streamed as an attachment with NetBox's import headers; `json` (the default): the page.",
};

/** The header of the resource's CSV (custom fields add a `cf_<name>` column each). */
const header = (r: ResourceDef) =>
  columnsOf(r, [])
    .map((c) => c.name)
    .join(',');

/** A CSV as text, its first line the header. */
const csvSchema = (r: ResourceDef): JsonSchema => ({
  type: 'string',
  description: `CSV (RFC 4180, UTF-8), first line the header: \`${header(r)}\` (and \`cf_<name>\` per custom field).`,
});

/** The YAML form: a list of flat mappings of the same columns, every value as its CSV cell. */
const yamlSchema = (r: ResourceDef): JsonSchema => ({
  type: 'array',
  items: {
    type: 'object',
    properties: Object.fromEntries(columnsOf(r, []).map((c) => [c.name, { type: 'string' }])),
    additionalProperties: { type: 'string' },
  },
});

/** The content of a list's 200: the JSON page, or the export. */
export function listContent(r: ResourceDef, page: JsonSchema): NonNullable<Response['content']> {
  return {
    'application/json': { schema: page },
    'text/csv': { schema: csvSchema(r) },
    'application/yaml': { schema: yamlSchema(r) },
  };
}

/** The import bodies a POST takes besides JSON. */
export const importBodies = (r: ResourceDef) => ({
  'text/csv': { schema: csvSchema(r) },
  'application/yaml': { schema: yamlSchema(r) },
});

/** What an import answers (a JSON body keeps the create's answers). */
export const IMPORT_RESPONSES = {
  200: json(
    {
      type: 'object',
      required: ['created', 'updated', 'unchanged'],
      properties: {
        created: { type: 'integer' },
        updated: { type: 'integer' },
        unchanged: { type: 'integer' },
      },
    },
    'A CSV or YAML import, written whole: how many rows created, updated (a row with an `id`) and unchanged',
  ),
  413: json(ref('Error'), 'The import has more rows than IMPORT_MAX_ROWS (`too_many_rows`); nothing written'),
};

/** A CSV / YAML import's 400: every bad row and field (up to 100 listed) with the total; nothing written. */
export const IMPORT_ERRORS: JsonSchema = {
  type: 'object',
  required: ['errors', 'count'],
  properties: {
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['row', 'field', 'detail'],
        properties: {
          row: { type: 'integer', description: 'The data row (1 is the first under the header; 0 the header)' },
          field: { type: ['string', 'null'] },
          detail: { type: 'string' },
        },
      },
    },
    count: { type: 'integer' },
  },
};
