// Paths of the lifecycle routes (server/routes/lifecycle.ts, mounted at /api/v1): machines,
// entities, events, history. Request bodies here are the ones validate-requests.ts enforces.
import { IDEMPOTENCY_KEY } from './inventory-paths.js';
import { resource } from '../../engine/schema/registry.js';
import { permissionFor, type Action } from '../auth.js';
import { EXPLAIN_PARAMETER, filterParameters, limitOffsetParameters, orderingParameter } from './filter-parameters.js';
import { sharedResponses } from './inventory-paths.js';
import { NAME_PATTERN } from '../../engine/lifecycle/machine-schema.js';
import { ENTITY_ID_PATTERN } from './lifecycle-schemas.js';
import { json, ref, type Operation, type Parameter, type PathItem } from './types.js';

const machine = resource('machine');
const entity = resource('entity');

const entityId: Parameter = {
  name: 'entity_id',
  in: 'path',
  required: true,
  description: '1–128 characters of `A-Z a-z 0-9 . _ : -`.',
  schema: { type: 'string', pattern: ENTITY_ID_PATTERN },
};
const machineName: Parameter = {
  name: 'name',
  in: 'path',
  required: true,
  description: 'Machine name.',
  schema: { type: 'string', pattern: NAME_PATTERN },
};
const version: Parameter = {
  name: 'version',
  in: 'path',
  required: true,
  description: 'Semantic version.',
  schema: { type: 'string' },
};
const idempotencyKey = IDEMPOTENCY_KEY;

const invalid = json(
  { anyOf: [ref('InvalidRequest'), ref('Error')] },
  'The body or a parameter does not match this document (`invalid_body`, `invalid_entity_id`, …)',
);
const error = (description: string) => json(ref('Error'), description);

function op(
  on: typeof machine,
  action: Action,
  operationId: string,
  summary: string,
  rest: Omit<Operation, 'operationId' | 'summary' | 'tags'>,
): Operation {
  return {
    operationId,
    summary,
    tags: [on === machine ? 'lifecycle/machines' : 'lifecycle/entities'],
    'x-permission': permissionFor(on, action),
    ...rest,
  };
}

const body = (name: string, description: string): Operation['requestBody'] => ({
  required: true,
  description,
  content: { 'application/json': { schema: ref(name) } },
});

export function lifecyclePaths(maxPageSize: number): Record<string, PathItem> {
  return { ...machinePaths(), ...entityPaths(maxPageSize) };
}

/** `/api/v1/machines…`: the stored machine definitions and their diagrams. */
function machinePaths(): Record<string, PathItem> {
  return {
    '/api/v1/machines': {
      get: op(machine, 'view', 'listMachines', 'List machine versions', {
        responses: {
          200: json(ref('MachineSummaryList'), 'Every stored name and version'),
          ...sharedResponses('401', '403'),
        },
      }),
      post: op(machine, 'add', 'installMachine', 'Store a new machine version', {
        description: 'Same name and version: an identical definition is a no-op (200), a different one a 409.',
        requestBody: {
          required: true,
          description:
            'The definition, as in a file of `machinesDir`: JSON, or YAML with `Content-Type: application/yaml`.',
          content: {
            'application/json': { schema: ref('MachineDefinition') },
            'application/yaml': { schema: ref('MachineDefinition') },
          },
        },
        responses: {
          201: json(ref('Machine'), 'Stored; the normalised definition'),
          200: json(ref('Machine'), 'Already stored, identical'),
          400: json({ anyOf: [ref('InvalidMachine'), ref('InvalidRequest')] }, 'Refused, with every problem listed'),
          409: error('This name and version exist with another definition (`machine_exists`)'),
          ...sharedResponses('401', '403'),
        },
      }),
    },
    '/api/v1/machines/{name}': {
      parameters: [machineName],
      get: op(machine, 'view', 'getMachine', 'A machine: its versions and its latest definition', {
        responses: {
          200: json(ref('MachineVersions'), 'Versions and the latest definition'),
          404: error('Unknown machine'),
          ...sharedResponses('401', '403'),
        },
      }),
    },
    '/api/v1/machines/{name}/versions/{version}': {
      parameters: [machineName, version],
      get: op(machine, 'view', 'getMachineVersion', 'One version of a machine (normalised: `source` is a list)', {
        responses: {
          200: json(ref('Machine'), 'The definition'),
          404: error('Unknown machine or version'),
          ...sharedResponses('401', '403'),
        },
      }),
    },
    '/api/v1/machines/{name}/versions/{version}/diagram.svg': {
      parameters: [machineName, version],
      get: op(machine, 'view', 'getMachineDiagram', 'State diagram of one version (SVG)', {
        responses: {
          200: {
            description: 'A self-contained SVG picture',
            content: { 'image/svg+xml': { schema: { type: 'string' } } },
          },
          404: error('Unknown machine or version'),
          ...sharedResponses('401', '403'),
        },
      }),
    },
  };
}

/** `/api/v1/entities…`: list, read, create, send an event, history. */
function entityPaths(maxPageSize: number): Record<string, PathItem> {
  return {
    '/api/v1/entities/': {
      get: op(entity, 'view', 'listEntities', 'List entities', {
        description:
          'Filtered with the same engine as the inventory lists (`machine_name`, `state`, `created__gte`, ' +
          '`state__n`, …).',
        parameters: [
          ...limitOffsetParameters(maxPageSize),
          orderingParameter(entity),
          EXPLAIN_PARAMETER,
          ...filterParameters(entity),
        ],
        responses: { 200: json(ref('EntityList'), 'A page of entities'), ...sharedResponses('400', '401', '403') },
      }),
    },
    '/api/v1/entities/{entity_id}': {
      parameters: [entityId],
      get: op(entity, 'view', 'getEntity', 'One entity', {
        responses: {
          200: json(ref('Entity'), 'The entity'),
          404: error('Unknown entity (`entity_not_found`)'),
          ...sharedResponses('401', '403'),
        },
      }),
    },
    '/api/v1/entities/{entity_id}/create': {
      parameters: [entityId],
      post: op(entity, 'add', 'createEntity', 'Create an entity at the initial state of a machine', {
        description:
          'Writes a history row with trigger `__entity_created__`. The entity is pinned to the machine ' +
          'version it was created with.',
        parameters: [idempotencyKey],
        requestBody: body('EntityCreate', 'The machine (and version) and an optional context.'),
        responses: {
          201: json(ref('Entity'), 'Created'),
          400: invalid,
          404: error('Unknown machine or version (`machine_not_found`)'),
          409: error('The entity exists (`entity_exists`)'),
          422: error('Idempotency-Key reused with another body (`idempotency_key_reused`)'),
          ...sharedResponses('401', '403'),
        },
      }),
    },
    '/api/v1/entities/{entity_id}/events': {
      parameters: [entityId],
      post: op(entity, 'change', 'sendEvent', 'Send an event: move the entity along a transition', {
        description:
          'The transition is the first one for the trigger from the current state whose guards pass on the ' +
          'merged context. The state change and its history row are written atomically; concurrent events on ' +
          'one entity are serialized.',
        parameters: [idempotencyKey],
        requestBody: body('EventRequest', 'The trigger, an optional context to merge and an optional expected state.'),
        responses: {
          200: json(ref('EventResult'), 'Moved'),
          400: invalid,
          404: error('Unknown entity (`entity_not_found`)'),
          409: error(
            'No transition from the current state (`invalid_transition`, with `available_triggers`), guard ' +
              'rejected (`guard_rejected`), or `expected_state` differs (`state_mismatch`)',
          ),
          422: error('Idempotency-Key reused with another body (`idempotency_key_reused`)'),
          ...sharedResponses('401', '403'),
        },
      }),
    },
    '/api/v1/entities/{entity_id}/history': {
      parameters: [entityId],
      get: op(entity, 'view', 'getEntityHistory', 'History of an entity, oldest first', {
        parameters: limitOffsetParameters(maxPageSize),
        responses: {
          200: json(ref('HistoryList'), 'History rows, oldest first'),
          404: error('Unknown entity'),
          ...sharedResponses('400', '401', '403'),
        },
      }),
    },
  };
}
