// Paths of the token endpoints (`/api/users/tokens/`, `{id}/` and `provision/`); schemas in token-schemas.ts.
import type { IdStyle } from '../../engine/schema/id-style.js';
import { resource, resourcePath } from '../../engine/schema/registry.js';
import { permissionFor, type Action } from '../auth.js';
import { filterParameters, limitOffsetParameters, orderingParameter } from './filter-parameters.js';
import { body, idParam, sharedResponses } from './inventory-paths.js';
import { listEnvelope } from './inventory-schemas.js';
import { PROVISION_PATH } from '../routes/provision.js';
import { FIXED } from '../routes/token-change.js';
import { json, ref, type Operation, type PathItem } from './types.js';

/** POST provision/: no token, a username and password (server/routes/provision.ts). */
const PROVISION: Operation = {
  operationId: 'provisionTokens',
  summary: 'A new token of a user, from its username and password (no token needed)',
  description:
    'Failed tries are slowed per username and per client address (429 with Retry-After). A wrong ' +
    'username, a wrong password and an inactive user all answer 403.',
  tags: ['users/tokens'],
  security: [],
  requestBody: body(ref('TokenProvision'), "Username, password and the new token's options"),
  responses: {
    201: json(ref('TokenCreated'), 'The new token with its key'),
    ...sharedResponses('400'),
    403: json(ref('Error'), 'Invalid username/password'),
    429: {
      ...json(ref('Error'), 'Too many failed logins from this username or address'),
      headers: { 'Retry-After': { description: 'seconds to wait', schema: { type: 'integer' } } },
    },
  },
};

/** `/api/users/tokens/`: list, create (the key is shown once), read, change, revoke; provision. */
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
  const change = (verb: string, summary: string, partial: boolean) =>
    tokenOp('change', verb, summary, {
      description:
        `${FIXED.join(', ')} are fixed once the token exists:` +
        ' sent back unchanged they are accepted, changed they are a 400 naming the field. expires may ' +
        'only move earlier.' +
        (partial
          ? ''
          : ' Fields not given take their defaults: description `""`, expires null (never), so the PUT of a token ' +
            'that expires must give expires.'),
      requestBody: body(ref('TokenChange'), 'The fields to change'),
      responses: { 200: json(ref('Token'), 'The changed token'), ...sharedResponses('400', '401', '403', '404') },
    });
  return {
    [PROVISION_PATH]: { post: PROVISION },
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
        description:
          'For `user`: only the user itself, or a holder of `users.grant_token`, creates tokens for a user; ' +
          "the token has its user's rights, narrowed to reading when `write_enabled` is false. The old form " +
          '(`permissions`, no `user`) cannot grant permissions its creator does not have. Refusals are 400s ' +
          'naming the field.',
        requestBody: body(ref('TokenWrite'), "The user (or the old form's permissions) and options"),
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
      put: change('replace', 'Replace the changeable fields of a token (description, enabled, expires)', false),
      patch: change('update', "Change a token's description, enabled or expires", true),
      delete: tokenOp('delete', 'revoke', 'Revoke a token', {
        responses: { 204: { description: 'Revoked' }, ...sharedResponses('401', '403', '404') },
      }),
    },
  };
}
