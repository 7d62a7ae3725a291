// Component schemas of the lifecycle API: request bodies (validated by the document itself, see
// validate-requests.ts), entities, history rows, machine definitions as written and as normalised.
import {
  DEFAULT_MAX_STATES,
  machineSchemas,
  MAX_NAME_LENGTH,
  MAX_VERSION_LENGTH,
  NAME_PATTERN,
} from '../../engine/lifecycle/machine-schema.js';
import { listEnvelope } from './inventory-schemas.js';
import { COMPONENTS, ref, type JsonSchema } from './types.js';

export const ENTITY_ID_PATTERN = '^[A-Za-z0-9._:-]{1,128}$';

const context: JsonSchema = {
  type: 'object',
  additionalProperties: true,
  description: 'Free-form JSON object; guards read it with dotted paths.',
};
const dateTime: JsonSchema = { type: 'string', format: 'date-time' };

const requests: Record<string, JsonSchema> = {
  EntityCreate: {
    type: 'object',
    title: 'Create an entity',
    additionalProperties: false,
    required: ['machine_name'],
    properties: {
      machine_name: { type: 'string', pattern: NAME_PATTERN, maxLength: MAX_NAME_LENGTH, examples: ['order_flow'] },
      machine_version: {
        type: 'string',
        format: 'semver',
        maxLength: MAX_VERSION_LENGTH,
        description: 'When absent: the highest version (semantic-version order).',
        examples: ['1.0.0'],
      },
      context: { ...context, description: 'The initial context.' },
    },
    examples: [{ machine_name: 'order_flow', context: { customer: 'acme' } }],
  },
  EventRequest: {
    type: 'object',
    title: 'Send an event',
    additionalProperties: false,
    required: ['trigger'],
    properties: {
      trigger: { type: 'string', minLength: 1, maxLength: MAX_NAME_LENGTH, examples: ['pay'] },
      context: {
        ...context,
        description:
          'Merged over the entity context (event keys win) before the guards run; stored when the transition happens.',
      },
      expected_state: {
        type: 'string',
        description: 'Compare-and-swap: 409 `state_mismatch` unless the entity is at this state.',
      },
    },
    examples: [
      { trigger: 'pay', context: { amount: 10, currency: 'EUR', payment_ref: 'p-1' }, expected_state: 'created' },
    ],
  },
};

// The written definition, with its limits (the stored columns' lengths, MAX_MACHINE_STATES): the
// engine's own schema, which validateMachine checks with ajv. What a schema cannot say (one initial
// state, known states, nothing leaves a terminal state, a guard's value against its op) the engine
// checks too; POST /api/v1/machines answers 400 `invalid_machine` listing every problem.
function definitionSchemas(maxStates: number): Record<string, JsonSchema> {
  const schemas = machineSchemas(maxStates, COMPONENTS);
  schemas.MachineDefinition.examples = [
    {
      meta: { machine_name: 'ticket', version: '1.0.0', description: 'A support ticket' },
      states: [
        { name: 'open', type: 'initial' },
        { name: 'done', type: 'terminal' },
      ],
      transitions: [
        { trigger: 'close', source: 'open', dest: 'done', guards: [{ field: 'resolution', op: 'exists' }] },
      ],
    },
  ];
  return schemas;
}

const machines: Record<string, JsonSchema> = {
  Machine: {
    type: 'object',
    title: 'Machine definition (normalised)',
    required: ['meta', 'states', 'transitions', 'initial_state'],
    properties: {
      meta: ref('MachineMeta'),
      states: { type: 'array', items: ref('MachineState') },
      initial_state: { type: 'string' },
      transitions: {
        type: 'array',
        items: {
          type: 'object',
          required: ['trigger', 'source', 'source_spec', 'dest', 'guards'],
          properties: {
            trigger: { type: 'string' },
            source: { type: 'array', items: { type: 'string' }, description: 'Concrete source states (`*` expanded).' },
            source_spec: {
              anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
              description: 'The source as written.',
            },
            dest: { type: 'string' },
            guards: { type: 'array', items: ref('Guard') },
            description: { type: 'string' },
          },
        },
      },
    },
  },
  MachineSummaryList: listEnvelope(
    {
      type: 'object',
      required: ['machine_name', 'version', 'description'],
      properties: { machine_name: { type: 'string' }, version: { type: 'string' }, description: { type: 'string' } },
    },
    'Machine list',
  ),
  MachineVersions: {
    type: 'object',
    required: ['machine_name', 'versions', 'latest', 'definition'],
    properties: {
      machine_name: { type: 'string' },
      versions: { type: 'array', items: { type: 'string' } },
      latest: { type: ['string', 'null'] },
      definition: { anyOf: [ref('Machine'), { type: 'null' }] },
    },
  },
};

const entities: Record<string, JsonSchema> = {
  Entity: {
    type: 'object',
    title: 'Entity',
    required: [
      'entity_id',
      'machine_name',
      'machine_version',
      'state',
      'context',
      'version',
      'created_at',
      'updated_at',
    ],
    properties: {
      entity_id: { type: 'string', pattern: ENTITY_ID_PATTERN },
      machine_name: { type: 'string' },
      machine_version: { type: 'string' },
      state: { type: 'string' },
      context,
      version: { type: 'integer', minimum: 1, description: 'Counts the changes of the entity.' },
      created_at: dateTime,
      updated_at: dateTime,
    },
  },
  HistoryRow: {
    type: 'object',
    title: 'History row',
    required: ['id', 'entity_id', 'trigger', 'source_state', 'target_state', 'context', 'created_at'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      entity_id: { type: 'string' },
      trigger: { type: 'string', description: '`__entity_created__` on the creation row.' },
      source_state: { type: ['string', 'null'], description: 'null on the creation row' },
      target_state: { type: 'string' },
      context,
      created_at: dateTime,
    },
  },
  EventResult: {
    type: 'object',
    required: ['entity', 'source_state', 'target_state', 'trigger'],
    properties: {
      entity: ref('Entity'),
      source_state: { type: 'string' },
      target_state: { type: 'string' },
      trigger: { type: 'string' },
    },
  },
  EntityList: listEnvelope(ref('Entity'), 'Entity list'),
  HistoryList: listEnvelope(ref('HistoryRow'), 'History, oldest first'),
};

const errors: Record<string, JsonSchema> = {
  Error: {
    type: 'object',
    title: 'Error',
    required: ['detail'],
    additionalProperties: true,
    properties: {
      detail: { type: 'string' },
      code: {
        type: 'string',
        description:
          'machine-readable: entity_not_found, invalid_transition, guard_rejected, state_mismatch, ' +
          'idempotency_key_reused, …',
      },
    },
  },
  InvalidRequest: {
    type: 'object',
    title: 'Request refused by the OpenAPI document',
    required: ['detail', 'code', 'errors'],
    properties: {
      detail: { type: 'string' },
      code: { type: 'string', examples: ['invalid_body', 'invalid_entity_id'] },
      errors: {
        type: 'array',
        items: {
          type: 'object',
          required: ['in', 'path', 'message'],
          properties: {
            in: { type: 'string', enum: ['body', 'path', 'header'] },
            path: { type: 'string', description: 'JSON pointer into the body, or the parameter name' },
            message: { type: 'string' },
          },
        },
      },
    },
  },
  InvalidMachine: {
    type: 'object',
    required: ['detail', 'code', 'problems'],
    properties: {
      detail: { type: 'string' },
      code: { const: 'invalid_machine' },
      problems: { type: 'array', items: { type: 'string' } },
    },
  },
};

export function lifecycleSchemas(maxMachineStates = DEFAULT_MAX_STATES): Record<string, JsonSchema> {
  return { ...requests, ...definitionSchemas(maxMachineStates), ...machines, ...entities, ...errors };
}
