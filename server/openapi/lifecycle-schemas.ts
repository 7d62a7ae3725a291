// Component schemas of the lifecycle API: request bodies (validated by the document itself, see
// validate-requests.ts), entities, history rows, machine definitions as written and as normalised.
import { CHECK_OPS } from '../../engine/lifecycle/index.js';
import { listEnvelope } from './inventory-schemas.js';
import { ref, type JsonSchema } from './types.js';

export const ENTITY_ID_PATTERN = '^[A-Za-z0-9._:-]{1,128}$';
export const NAME_PATTERN = '^[a-z0-9_]+$';
// semver.org 2.0.0, the same rules as engine/lifecycle/semver.ts
export const SEMVER_PATTERN = '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$';

const context: JsonSchema = { type: 'object', additionalProperties: true, description: 'Free-form JSON object; guards read it with dotted paths.' };
const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
const nameString = (description: string): JsonSchema => ({ type: 'string', description });

const requests: Record<string, JsonSchema> = {
  EntityCreate: {
    type: 'object', title: 'Create an entity', additionalProperties: false, required: ['machine_name'],
    properties: {
      machine_name: { type: 'string', pattern: NAME_PATTERN, maxLength: 100, examples: ['order_flow'] },
      machine_version: { type: 'string', pattern: SEMVER_PATTERN, description: 'When absent: the highest version (semantic-version order).', examples: ['1.0.0'] },
      context: { ...context, description: 'The initial context.' },
    },
    examples: [{ machine_name: 'order_flow', context: { customer: 'acme' } }],
  },
  EventRequest: {
    type: 'object', title: 'Send an event', additionalProperties: false, required: ['trigger'],
    properties: {
      trigger: { type: 'string', minLength: 1, maxLength: 100, examples: ['pay'] },
      context: { ...context, description: 'Merged over the entity context (event keys win) before the guards run; stored when the transition happens.' },
      expected_state: { type: 'string', description: 'Compare-and-swap: 409 `state_mismatch` unless the entity is at this state.' },
    },
    examples: [{ trigger: 'pay', context: { amount: 10, currency: 'EUR', payment_ref: 'p-1' }, expected_state: 'created' }],
  },
};

const guards: Record<string, JsonSchema> = {
  Guard: {
    title: 'Guard', description: 'A field check, or all/any/not of guards. Data, never code.',
    oneOf: [ref('FieldCheck'), ref('AllGuard'), ref('AnyGuard'), ref('NotGuard')],
  },
  FieldCheck: {
    type: 'object', title: 'Field check', additionalProperties: false, required: ['field', 'op'],
    properties: {
      field: { type: 'string', minLength: 1, description: 'Dotted path into the context (`order.total`, `items.0.sku`).' },
      op: { type: 'string', enum: [...CHECK_OPS] },
      value: { description: 'eq/ne: any JSON value; gt/gte/lt/lte: a number or a string; in/not_in: a list; exists: optional boolean (default true); matches: an RE2 pattern.' },
    },
    examples: [{ field: 'amount', op: 'lte', value: 1000 }],
  },
  AllGuard: { type: 'object', title: 'all', additionalProperties: false, required: ['all'], properties: { all: { type: 'array', items: ref('Guard') } } },
  AnyGuard: { type: 'object', title: 'any', additionalProperties: false, required: ['any'], properties: { any: { type: 'array', items: ref('Guard') } } },
  NotGuard: { type: 'object', title: 'not', additionalProperties: false, required: ['not'], properties: { not: ref('Guard') } },
};

// The written definition: the shape is checked here; naming rules, versions and the graph
// (one initial state, known states, nothing leaves a terminal state) by the engine, which
// answers 400 `invalid_machine` listing every problem.
const stateDef: JsonSchema = {
  type: 'object', additionalProperties: false, required: ['name', 'type'],
  properties: { name: nameString('`^[a-z0-9_]+$`'), type: { type: 'string', enum: ['initial', 'stable', 'terminal'] }, description: { type: 'string' } },
};
const metaDef: JsonSchema = {
  type: 'object', additionalProperties: false, required: ['machine_name', 'version'],
  properties: { machine_name: nameString('`^[a-z0-9_]+$`'), version: nameString('semantic version MAJOR.MINOR.PATCH'), description: { type: 'string' } },
};

const machines: Record<string, JsonSchema> = {
  MachineDefinition: {
    type: 'object', title: 'Machine definition (as written)', additionalProperties: false, required: ['meta', 'states', 'transitions'],
    properties: {
      meta: metaDef,
      states: { type: 'array', items: stateDef, description: 'Exactly one `initial` state.' },
      transitions: {
        type: 'array', description: 'When several transitions match a trigger, the first whose guards pass is taken.',
        items: {
          type: 'object', additionalProperties: false, required: ['trigger', 'source', 'dest'],
          properties: {
            trigger: nameString('`^[a-z0-9_]+$`'),
            source: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }], description: 'A state, a list of states, or `"*"` (every non-terminal state).' },
            dest: { type: 'string' },
            guards: { type: 'array', items: ref('Guard'), description: 'All must pass.' },
            description: { type: 'string' },
          },
        },
      },
    },
    examples: [{ meta: { machine_name: 'ticket', version: '1.0.0', description: 'A support ticket' }, states: [{ name: 'open', type: 'initial' }, { name: 'done', type: 'terminal' }], transitions: [{ trigger: 'close', source: 'open', dest: 'done', guards: [{ field: 'resolution', op: 'exists' }] }] }],
  },
  Machine: {
    type: 'object', title: 'Machine definition (normalised)', required: ['meta', 'states', 'transitions', 'initial_state'],
    properties: {
      meta: metaDef, states: { type: 'array', items: stateDef }, initial_state: { type: 'string' },
      transitions: {
        type: 'array', items: {
          type: 'object', required: ['trigger', 'source', 'source_spec', 'dest', 'guards'],
          properties: {
            trigger: { type: 'string' },
            source: { type: 'array', items: { type: 'string' }, description: 'Concrete source states (`*` expanded).' },
            source_spec: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }], description: 'The source as written.' },
            dest: { type: 'string' }, guards: { type: 'array', items: ref('Guard') }, description: { type: 'string' },
          },
        },
      },
    },
  },
  MachineSummaryList: listEnvelope({ type: 'object', required: ['machine_name', 'version', 'description'], properties: { machine_name: { type: 'string' }, version: { type: 'string' }, description: { type: 'string' } } }, 'Machine list'),
  MachineVersions: {
    type: 'object', required: ['machine_name', 'versions', 'latest', 'definition'],
    properties: { machine_name: { type: 'string' }, versions: { type: 'array', items: { type: 'string' } }, latest: { type: ['string', 'null'] }, definition: { anyOf: [ref('Machine'), { type: 'null' }] } },
  },
};

const entities: Record<string, JsonSchema> = {
  Entity: {
    type: 'object', title: 'Entity', required: ['entity_id', 'machine_name', 'machine_version', 'state', 'context', 'version', 'created_at', 'updated_at'],
    properties: {
      entity_id: { type: 'string', pattern: ENTITY_ID_PATTERN }, machine_name: { type: 'string' }, machine_version: { type: 'string' },
      state: { type: 'string' }, context, version: { type: 'integer', minimum: 1, description: 'Counts the changes of the entity.' },
      created_at: dateTime, updated_at: dateTime,
    },
  },
  HistoryRow: {
    type: 'object', title: 'History row', required: ['id', 'entity_id', 'trigger', 'source_state', 'target_state', 'context', 'created_at'],
    properties: {
      id: { type: 'string', format: 'uuid' }, entity_id: { type: 'string' },
      trigger: { type: 'string', description: '`__entity_created__` on the creation row.' },
      source_state: { type: ['string', 'null'], description: 'null on the creation row' }, target_state: { type: 'string' },
      context, created_at: dateTime,
    },
  },
  EventResult: {
    type: 'object', required: ['entity', 'source_state', 'target_state', 'trigger'],
    properties: { entity: ref('Entity'), source_state: { type: 'string' }, target_state: { type: 'string' }, trigger: { type: 'string' } },
  },
  EntityList: listEnvelope(ref('Entity'), 'Entity list'),
  HistoryList: listEnvelope(ref('HistoryRow'), 'History, oldest first'),
};

const errors: Record<string, JsonSchema> = {
  Error: {
    type: 'object', title: 'Error', required: ['detail'], additionalProperties: true,
    properties: { detail: { type: 'string' }, code: { type: 'string', description: 'machine-readable: entity_not_found, invalid_transition, guard_rejected, state_mismatch, idempotency_key_reused, …' } },
  },
  InvalidRequest: {
    type: 'object', title: 'Request refused by the OpenAPI document', required: ['detail', 'code', 'errors'],
    properties: {
      detail: { type: 'string' }, code: { type: 'string', examples: ['invalid_body', 'invalid_entity_id'] },
      errors: { type: 'array', items: { type: 'object', required: ['in', 'path', 'message'], properties: { in: { type: 'string', enum: ['body', 'path', 'header'] }, path: { type: 'string', description: 'JSON pointer into the body, or the parameter name' }, message: { type: 'string' } } } },
    },
  },
  InvalidMachine: {
    type: 'object', required: ['detail', 'code', 'problems'],
    properties: { detail: { type: 'string' }, code: { const: 'invalid_machine' }, problems: { type: 'array', items: { type: 'string' } } },
  },
};

export function lifecycleSchemas(): Record<string, JsonSchema> {
  return { ...requests, ...guards, ...machines, ...entities, ...errors };
}
