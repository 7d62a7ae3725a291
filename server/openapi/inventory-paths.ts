// Paths of the inventory list endpoints (`/api/dcim/sites/` and `{id}/`), one set per registry
// resource mounted by server/app.ts, and the parameters and responses other paths share.
import { contentType, resourcePath, RESOURCES } from '../../engine/schema/registry.js';
import { FORMAT_PARAMETER, IMPORT_ERRORS, IMPORT_RESPONSES, importBodies, listContent } from './transfer-content.js';
import type { IdStyle } from '../../engine/schema/id-style.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import { permissionFor, type Action } from '../auth.js';
import { SHAPE_PARAMETERS, startParameter } from './shape-parameters.js';
import {
  BRIEF_PARAMETER,
  CUSTOM_FIELD_NOTE,
  EXPLAIN_PARAMETER,
  filterParameters,
  limitOffsetParameters,
  orderingParameter,
} from './filter-parameters.js';
import { idSchema, integerIds, UUID_PATTERN } from './id-schemas.js';
import { schemaNames } from './inventory-schemas.js';
import {
  json,
  pascal,
  ref,
  type JsonSchema,
  type Operation,
  type Parameter,
  type PathItem,
  type RefObject,
} from './types.js';

/** Shared responses by status code, as references to `components.responses`. */
export const sharedResponses = (...codes: string[]): Record<string, RefObject> =>
  Object.fromEntries(codes.map((c) => [c, { $ref: `#/components/responses/${STATUS_RESPONSE[c]}` }]));
const STATUS_RESPONSE: Record<string, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  400: 'FieldErrors',
};

/** `{id}` of a path of `r`'s objects. */
export const idParam = (r: ResourceDef | string, ids: IdStyle): Parameter => ({
  name: 'id',
  in: 'path',
  required: true,
  description: integerIds(r, ids) ? 'The object id (an integer).' : 'The object id (UUID).',
  schema: idSchema(r, ids, { type: 'string', format: 'uuid', pattern: UUID_PATTERN }),
});
const UUID_ID: JsonSchema = { type: 'string', format: 'uuid' };
/** `{"id": …}` of a bulk write item. */
const withId = (r: ResourceDef, ids: IdStyle): JsonSchema => ({
  type: 'object',
  required: ['id'],
  properties: { id: idSchema(r, ids, UUID_ID) },
});

const IF_MATCH: Parameter = {
  name: 'If-Match',
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description:
    'Write only if the object is still at this version: the `ETag` of the answer you read it from (e.g. ' +
    '`"3"`). A stale version is a 412 `precondition_failed` and changes nothing. Without it a change is ' +
    'merged into the current object.',
};
/** Idempotency-Key on every write (inventory and lifecycle). */
export const IDEMPOTENCY_KEY: Parameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 128 },
  description:
    'A repeat with the same key and body returns the first response (`Idempotent-Replayed: true`) instead of ' +
    'acting twice; the same key with another body is a 422. Inventory keys are scoped to token, method and ' +
    'path and kept for IDEMPOTENCY_TTL_S.',
};
/** Responses every keyed inventory write may give besides its own. */
const KEYED_RESPONSES = {
  422: json(ref('Error'), 'Idempotency-Key reused with another body (`idempotency_key_reused`)'),
  503: json(
    ref('Error'),
    'Nothing was written (`storage_unavailable`), or the connection was lost while the write committed and ' +
      'its outcome cannot be told now (`commit_unknown`): retry with the same Idempotency-Key',
  ),
};
const ETAG_HEADER = {
  ETag: {
    description: 'The object\'s version as a strong entity tag (e.g. `"3"`): send it back as If-Match.',
    schema: { type: 'string' },
  },
};
const PRECONDITION_FAILED = json(
  ref('Error'),
  'If-Match named a version the object is no longer at (`precondition_failed`)',
);
/** A regex or case-insensitive text query past MAX_HEAVY_QUERIES running at once (Retry-After: 1). */
export const TOO_MANY_HEAVY = json(
  ref('Error'),
  'Too many heavy queries (regex, case-insensitive text lookups, filters that narrow nothing through an ' +
    'index) running at once (`too_many_heavy_queries`); retry after the Retry-After header',
);
const tagged = (schema: JsonSchema, description: string) => ({ ...json(schema, description), headers: ETAG_HEADER });

/** Plurals two apps share (dcim and virtualization interfaces): their operation ids name the app too. */
const sharedPlurals = new Set(RESOURCES.map((r) => r.plural).filter((p, i, all) => all.indexOf(p) !== i));
const opNoun = (r: ResourceDef) =>
  sharedPlurals.has(r.plural) && r.app !== 'dcim' ? pascal(`${r.app}_${r.plural}`) : pascal(r.plural);

function op(
  r: ResourceDef,
  action: Action,
  verb: string,
  summary: string,
  rest: Omit<Operation, 'operationId' | 'summary' | 'tags'>,
): Operation {
  return {
    operationId: `${verb}${opNoun(r)}`,
    summary,
    tags: [`${r.app}/${r.plural}`],
    'x-permission': permissionFor(r, action),
    ...rest,
  };
}

/** A POST body that may also be a CSV or YAML import. */
const withImports = (r: ResourceDef, b: Operation['requestBody']): Operation['requestBody'] =>
  b && { ...b, content: { ...b.content, ...importBodies(r) } };

export function body(schema: JsonSchema, description: string): Operation['requestBody'] {
  return { required: true, description, content: { 'application/json': { schema } } };
}

const BULK_NOTE =
  "NetBox's bulk update: applied all or none. 200 with the updated objects in the order given, or 400 with a " +
  'list of errors per item ({} for a good one) and nothing changed. An object listed twice, or an id that ' +
  'does not exist, is an error of its item.';
const BULK_ERRORS = json(
  { anyOf: [{ type: 'array', items: ref('FieldErrors') }, ref('FieldErrors')] },
  'Invalid: a list of errors per item (non_field_errors when the body is not a list of objects with ids)',
);
const bulkItems = (schema: string, id: JsonSchema): JsonSchema => ({
  type: 'array',
  minItems: 1,
  items: { allOf: [ref(schema), id] },
});

type Names = ReturnType<typeof schemaNames>;

/** `/api/<app>/<plural>/`: the filtered list, the (bulk) writes and OPTIONS. */
function listItem(r: ResourceDef, n: Names, maxPageSize: number, ids: IdStyle): PathItem {
  return {
    get: op(r, 'view', 'list', `List ${r.plural}`, {
      description:
        `${r.description}. Filters are ANDed across names and ORed across repeated ` +
        `values.${r.fields.some((f) => f.kind === 'custom_fields') ? ` ${CUSTOM_FIELD_NOTE}` : ''}`,
      parameters: [
        ...limitOffsetParameters(maxPageSize),
        startParameter(r, ids),
        orderingParameter(r),
        BRIEF_PARAMETER,
        ...SHAPE_PARAMETERS,
        EXPLAIN_PARAMETER,
        FORMAT_PARAMETER,
        ...filterParameters(r, ids),
      ],
      responses: {
        200: {
          description: `A page of ${r.plural}, or all of them as CSV or YAML`,
          content: listContent(r, ref(n.list)),
        },
        429: TOO_MANY_HEAVY,
        ...sharedResponses('400', '401', '403'),
      },
    }),
    ...listWrites(r, n, ids),
    options: op(r, 'view', 'options', `Metadata of ${r.plural} (OPTIONS)`, {
      description:
        '`actions.POST.<field>` with type, required, read_only, label and choices; present when the token ' +
        'may POST here.',
      responses: {
        200: json(ref('OptionsMetadata'), 'Name, description and field metadata'),
        ...sharedResponses('401', '403'),
      },
    }),
  };
}

/** The writes of a list path: create one or many, and NetBox's bulk replace, update and delete. */
function listWrites(r: ResourceDef, n: Names, ids: IdStyle): PathItem {
  const id = withId(r, ids);
  return {
    post: op(r, 'add', 'create', `Create one ${r.label.toLowerCase()} or a list of them`, {
      description:
        'A list is created all-or-nothing: 201 with the created objects in the order given, or 400 and ' +
        'nothing created. A CSV or YAML body (`Content-Type: text/csv` or `application/yaml`) is an import, all ' +
        'or nothing: a row with an `id` updates that object, one without creates; 200 with the counts, or 400 ' +
        'naming every bad row and field.',
      parameters: [IDEMPOTENCY_KEY],
      requestBody: withImports(
        r,
        body(
          { anyOf: [ref(n.write), { type: 'array', minItems: 1, items: ref(n.write) }] },
          'One object, or a non-empty list of objects; or a CSV or YAML import.',
        ),
      ),
      responses: {
        ...KEYED_RESPONSES,
        201: json(
          { anyOf: [ref(n.read), { type: 'array', items: ref(n.read) }] },
          'Created (one object, or the list in the order given)',
        ),
        ...IMPORT_RESPONSES,
        400: json(
          { anyOf: [ref('FieldErrors'), { type: 'array', items: ref('FieldErrors') }, IMPORT_ERRORS] },
          'Invalid: errors keyed by field (a list of them for a list body; by row and field for an import)',
        ),
        ...sharedResponses('401', '403'),
      },
    }),
    put: op(r, 'change', 'bulkReplace', `Replace several ${r.plural}`, {
      description: BULK_NOTE,
      parameters: [IDEMPOTENCY_KEY],
      requestBody: body(
        bulkItems(n.write, id),
        'A non-empty list of objects, each with its id and every required field.',
      ),
      responses: {
        ...KEYED_RESPONSES,
        200: json({ type: 'array', items: ref(n.read) }, 'Updated, in the order given'),
        400: BULK_ERRORS,
        ...sharedResponses('401', '403'),
      },
    }),
    patch: op(r, 'change', 'bulkUpdate', `Update some fields of several ${r.plural}`, {
      description: BULK_NOTE,
      parameters: [IDEMPOTENCY_KEY],
      requestBody: body(
        bulkItems(n.patch, id),
        'A non-empty list of objects, each with its id and the fields to change.',
      ),
      responses: {
        ...KEYED_RESPONSES,
        200: json({ type: 'array', items: ref(n.read) }, 'Updated, in the order given'),
        400: BULK_ERRORS,
        ...sharedResponses('401', '403'),
      },
    }),
    delete: op(r, 'delete', 'bulkDelete', `Delete several ${r.plural}`, {
      description:
        'All or none: 204 when every object (with what its deletion takes along) is deleted; 404 naming the ' +
        'ids that do not exist, or 409 when one is still referenced, and nothing is deleted.',
      parameters: [IDEMPOTENCY_KEY],
      requestBody: body({ type: 'array', minItems: 1, items: id }, 'A non-empty list of {"id": …}.'),
      responses: {
        ...KEYED_RESPONSES,
        204: { description: 'Deleted' },
        409: json(ref('Error'), 'Still referenced by protected objects'),
        ...sharedResponses('400', '401', '403', '404'),
      },
    }),
  };
}

/** `/api/<app>/<plural>/{id}/`: read, replace, update and delete one object. */
function detailItem(r: ResourceDef, n: Names, ids: IdStyle): PathItem {
  return {
    parameters: [idParam(r, ids)],
    get: op(r, 'view', 'get', `Get one ${r.label.toLowerCase()}`, {
      parameters: [BRIEF_PARAMETER, ...SHAPE_PARAMETERS],
      responses: {
        200: tagged(ref(n.read), `${r.label} (the brief form carries no ETag)`),
        ...sharedResponses('401', '403', '404'),
      },
    }),
    put: op(r, 'change', 'replace', `Replace one ${r.label.toLowerCase()}`, {
      parameters: [IF_MATCH, IDEMPOTENCY_KEY],
      requestBody: body(ref(n.write), 'Every required field.'),
      responses: {
        ...KEYED_RESPONSES,
        200: tagged(ref(n.read), 'Updated'),
        412: PRECONDITION_FAILED,
        ...sharedResponses('400', '401', '403', '404'),
      },
    }),
    patch: op(r, 'change', 'update', `Update some fields of one ${r.label.toLowerCase()}`, {
      parameters: [IF_MATCH, IDEMPOTENCY_KEY],
      requestBody: body(ref(n.patch), 'Only the fields to change.'),
      responses: {
        ...KEYED_RESPONSES,
        200: tagged(ref(n.read), 'Updated'),
        412: PRECONDITION_FAILED,
        ...sharedResponses('400', '401', '403', '404'),
      },
    }),
    delete: op(r, 'delete', 'delete', `Delete one ${r.label.toLowerCase()}`, {
      parameters: [IF_MATCH, IDEMPOTENCY_KEY],
      responses: {
        ...KEYED_RESPONSES,
        204: { description: 'Deleted' },
        409: json(ref('Error'), 'Still referenced by protected objects'),
        412: PRECONDITION_FAILED,
        ...sharedResponses('401', '403', '404'),
      },
    }),
  };
}

export function inventoryPaths(r: ResourceDef, maxPageSize: number, ids: IdStyle): Record<string, PathItem> {
  const n = schemaNames(r);
  const list = listItem(r, n, maxPageSize, ids);
  const detail = detailItem(r, n, ids);
  if (r.writable === false) for (const item of [list, detail]) for (const m of WRITE_METHODS) delete item[m];
  const out: Record<string, PathItem> = { [resourcePath(r)]: list, [`${resourcePath(r)}{id}/`]: detail };
  // Further paths serving the same endpoint (NetBox 4.1's /api/core/object-changes/): operation ids of their own.
  for (const at of r.alsoAt ?? []) {
    out[at] = servedAt(list, at);
    out[`${at}{id}/`] = servedAt(detail, at);
  }
  return out;
}

const WRITE_METHODS = ['post', 'put', 'patch', 'delete'] as const;

/** The operations of a path item as served at another list path `/api/<app>/<endpoint>/` (that app's tag). */
function servedAt(item: PathItem, at: string): PathItem {
  const [, , app, endpoint] = at.split('/');
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item))
    out[k] =
      v && typeof v === 'object' && 'operationId' in v
        ? { ...v, operationId: `${(v as Operation).operationId}${pascal(app)}`, tags: [`${app}/${endpoint}`] }
        : v;
  return out as PathItem;
}

export const inventoryTag = (r: ResourceDef) => ({
  name: `${r.app}/${r.plural}`,
  description: `${r.label}: ${r.description} (\`${contentType(r)}\`)`,
});
