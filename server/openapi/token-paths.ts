// Paths and schemas of the token endpoints (`/api/users/tokens/` and `{id}/`).
import type { IdStyle } from '../../engine/schema/id-style.js';
import { resource, resourcePath } from '../../engine/schema/registry.js';
import { permissionFor, type Action } from '../auth.js';
import { filterParameters, limitOffsetParameters, orderingParameter } from './filter-parameters.js';
import { body, idParam, sharedResponses } from './inventory-paths.js';
import { listEnvelope } from './inventory-schemas.js';
import { idSchema } from './id-schemas.js';
import { json, ref, type JsonSchema, type Operation, type PathItem } from './types.js';

/** `/api/users/tokens/`: list, create (the key is shown once), read, revoke. */
export function tokenPaths(maxPageSize: number, ids: IdStyle): Record<string, PathItem> {
  const t = resource('token');
  const tokenOp = (
    action: Action,
    verb: string,
    summary: string,
    rest: Omit<Operation, 'operationId' | 'summary' | 'tags'>,
  ): Operation => ({
    operationId: `${verb}Tokens`,
    summary,
    tags: ['users/tokens'],
    'x-permission': permissionFor(t, action),
    ...rest,
  });
  return {
    [resourcePath(t)]: {
      get: tokenOp('view', 'list', 'List tokens', {
        description:
          'Filtered and ordered as every list (the key hash is neither a filter nor an ordering field): an ' +
          'unknown filter is a 400 naming it.',
        parameters: [...limitOffsetParameters(maxPageSize), orderingParameter(t), ...filterParameters(t, ids)],
        responses: {
          200: json(listEnvelope(ref('Token'), 'Token list'), 'The tokens that match (keys are never shown again)'),
          ...sharedResponses('400', '401', '403'),
        },
      }),
      post: tokenOp('add', 'create', 'Create a token (the key is shown once)', {
        description: 'A token cannot grant permissions its creator does not have.',
        requestBody: body(ref('TokenWrite'), 'Permissions (default `["*"]`) and a description.'),
        responses: {
          201: json(ref('TokenCreated'), 'The new token with its key'),
          ...sharedResponses('400', '401', '403'),
        },
      }),
    },
    [`${resourcePath(t)}{id}/`]: {
      parameters: [idParam(t, ids)],
      get: tokenOp('view', 'read', 'A token (its key is never shown again)', {
        responses: { 200: json(ref('Token'), 'The token'), ...sharedResponses('401', '403', '404') },
      }),
      delete: tokenOp('delete', 'revoke', 'Revoke a token', {
        responses: { 204: { description: 'Revoked' }, ...sharedResponses('401', '403', '404') },
      }),
    },
  };
}

export function tokenSchemas(ids: IdStyle): Record<string, JsonSchema> {
  const permissions: JsonSchema = {
    type: 'array',
    items: { type: 'string', pattern: '^(\\*|[a-z]+\\.(view|add|change|delete)_[a-z]+)$' },
    examples: [['*'], ['dcim.view_site', 'lifecycle.add_entity']],
  };
  const token: JsonSchema = {
    type: 'object',
    required: ['id', 'url', 'display', 'key_tail', 'permissions', 'description', 'created'],
    properties: {
      id: idSchema('token', ids, { type: 'string', format: 'uuid' }),
      url: { type: 'string', format: 'uri' },
      display: { type: 'string' },
      key_tail: { type: 'string', description: 'last 4 characters of the key' },
      permissions,
      description: { type: 'string' },
      created: { type: 'string', format: 'date-time' },
    },
  };
  return {
    Token: token,
    TokenCreated: {
      ...token,
      required: [...(token.required as string[]), 'key'],
      properties: {
        ...(token.properties as object),
        key: { type: 'string', description: 'the key: shown only in this response' },
      },
    },
    TokenWrite: {
      type: 'object',
      additionalProperties: false,
      properties: { permissions: { ...permissions, default: ['*'] }, description: { type: 'string' } },
    },
  };
}
