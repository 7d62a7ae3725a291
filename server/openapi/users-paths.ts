// Paths of the users app's users, groups and object permissions (server/routes/users.ts) and of
// `GET /api/authentication-check/` (server/routes/authentication-check.ts).
import type { IdStyle } from '../../engine/schema/id-style.js';
import { resource, resourcePath } from '../../engine/schema/registry.js';
import type { UsersResource } from '../../app/user-writes.js';
import { AUTHENTICATION_CHECK_PATH } from '../routes/authentication-check.js';
import { permissionFor, type Action } from '../auth.js';
import { filterParameters, limitOffsetParameters, orderingParameter } from './filter-parameters.js';
import { body, idParam, sharedResponses } from './inventory-paths.js';
import { listEnvelope } from './inventory-schemas.js';
import { USERS_RESOURCES, usersSchemaNames } from './users-schemas.js';
import { json, pascal, ref, type Operation, type PathItem } from './types.js';

const RAISE =
  'A write that would give the writer a permission it does not hold (through a group or a permission it ' +
  'edits) is a 403 and changes nothing; only a holder of every permission (`*`) sets is_superuser or ' +
  'is_staff (else a 400 naming the field).';

function resourcePaths(name: UsersResource, maxPageSize: number, ids: IdStyle): Record<string, PathItem> {
  const r = resource(name);
  const n = usersSchemaNames(name);
  const noun = pascal(r.plural);
  const label = r.label.toLowerCase();
  const op = (
    action: Action,
    verb: string,
    summary: string,
    rest: Omit<Operation, 'operationId' | 'summary' | 'tags'>,
  ) =>
    ({
      operationId: `${verb}${noun}`,
      summary,
      tags: [`${r.app}/${r.plural}`],
      'x-permission': permissionFor(r, action),
      ...rest,
    }) satisfies Operation;
  const changed = (verb: string, schema: string, summary: string) =>
    op('change', verb, summary, {
      description: RAISE,
      requestBody: body(ref(schema), `The ${label}'s fields`),
      responses: {
        200: json(ref(n.read), `The changed ${label}`),
        ...sharedResponses('400', '401', '403', '404'),
      },
    });
  return {
    [resourcePath(r)]: {
      get: op('view', 'list', `List ${r.plural}`, {
        description: 'Filtered and ordered as every list: an unknown filter is a 400 naming it.',
        parameters: [...limitOffsetParameters(maxPageSize), orderingParameter(r), ...filterParameters(r, ids)],
        // Inline, as the tokens' list: a named list schema would make these browsable resources of the UI.
        responses: {
          200: json(listEnvelope(ref(n.read), `${r.label} list`), `The ${r.plural} that match`),
          ...sharedResponses('400', '401', '403'),
        },
      }),
      post: op('add', 'create', `Create a ${label}`, {
        description: RAISE,
        requestBody: body(ref(n.create), `The new ${label}`),
        responses: { 201: json(ref(n.read), `The new ${label}`), ...sharedResponses('400', '401', '403') },
      }),
    },
    [`${resourcePath(r)}{id}/`]: {
      parameters: [idParam(r, ids)],
      get: op('view', 'read', `A ${label}`, {
        responses: { 200: json(ref(n.read), `The ${label}`), ...sharedResponses('401', '403', '404') },
      }),
      put: changed(
        'replace',
        n.replace,
        `Replace a ${label} (the required fields given; others left out keep their values)`,
      ),
      patch: changed('update', n.patch, `Change fields of a ${label}`),
      delete: op('delete', 'delete', `Delete a ${label}`, {
        description:
          name === 'user'
            ? 'Its tokens are deleted with it; permissions naming it no longer do.'
            : 'Users and permissions naming it no longer do.',
        responses: { 204: { description: 'Deleted' }, ...sharedResponses('401', '403', '404') },
      }),
    },
  };
}

export function usersPaths(maxPageSize: number, ids: IdStyle): Record<string, PathItem> {
  const out: Record<string, PathItem> = {};
  for (const name of USERS_RESOURCES) Object.assign(out, resourcePaths(name, maxPageSize, ids));
  out[AUTHENTICATION_CHECK_PATH] = {
    get: {
      operationId: 'authenticationCheck',
      summary: "The token's user (no permission needed)",
      tags: ['meta'],
      responses: {
        200: json(ref(usersSchemaNames('user').read), 'The user, as `/api/users/users/{id}/` answers it'),
        401: { $ref: '#/components/responses/Unauthorized' },
        403: json(ref('Error'), "The client's address is outside the token's allowed_ips"),
      },
    },
  };
  return out;
}
