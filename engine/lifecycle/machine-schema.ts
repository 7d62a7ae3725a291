// The shape of a machine definition as written, as one JSON Schema (2020-12) with the limits in it:
// the lengths the stored columns hold (from the schema registry) and MAX_MACHINE_STATES. ajv checks
// it in validateMachine (validate.ts, which keeps the rules across fields); the OpenAPI document
// publishes it as MachineDefinition and its parts (server/openapi/lifecycle-schemas.ts).
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { entity, history, machine } from '../schema/resources/lifecycle.js';
import { field } from '../schema/registry.js';
import type { ResourceDef } from '../schema/types.js';
import { isSemver } from './semver.js';
import { CHECK_OPS } from './types.js';
import { MAX_GUARD_DEPTH } from './describe-guard.js';

export type JsonSchema = Record<string, unknown>;

/** Size bounds of a definition (its diagram, its checks); stored ones are read without them. */
export interface MachineLimits {
  readonly maxStates: number;
}
export const DEFAULT_MAX_STATES = 500;
/** Transitions a definition may have per state it may have. */
export const TRANSITIONS_PER_STATE = 10;
/** Deeper nesting of guards is refused, so evaluation recursion stays shallow. */
export { MAX_GUARD_DEPTH };

/** Lengths the stored columns hold (machine and state names, triggers; versions), from the registry. */
const maxLengthOf = (r: ResourceDef, name: string): number => field(r, name)!.maxLength!;
export const MAX_NAME_LENGTH = Math.min(
  maxLengthOf(machine, 'machine_name'),
  maxLengthOf(entity, 'state'),
  maxLengthOf(history, 'trigger'),
  maxLengthOf(history, 'target_state'),
);
export const MAX_VERSION_LENGTH = Math.min(maxLengthOf(machine, 'version'), maxLengthOf(entity, 'machine_version'));
export const NAME_PATTERN = '^[a-z0-9_]+$';
export const STATE_TYPES = ['initial', 'stable', 'terminal'] as const;
/** The key that makes a guard of each kind, and the schema of that kind. */
export const GUARD_KINDS = { field: 'FieldCheck', all: 'AllGuard', any: 'AnyGuard', not: 'NotGuard' } as const;
export type GuardKind = keyof typeof GUARD_KINDS;

const name = (description: string): JsonSchema => ({
  type: 'string',
  maxLength: MAX_NAME_LENGTH,
  pattern: NAME_PATTERN,
  description,
});
const text: JsonSchema = { type: 'string' };
const combinator = (kind: string, operand: JsonSchema): JsonSchema => ({
  type: 'object',
  title: kind,
  additionalProperties: false,
  required: [kind],
  properties: { [kind]: operand },
});

/**
 * The definition (`MachineDefinition`) and its parts, as named schemas referring to each other
 * through `refBase` + name: `#/$defs/` inside one schema, `#/components/schemas/` in OpenAPI.
 * `maxStates` bounds the states and, ten per state, the transitions (Infinity: unbounded).
 */
export function machineSchemas(maxStates: number, refBase = '#/$defs/'): Record<string, JsonSchema> {
  const ref = (to: string): JsonSchema => ({ $ref: `${refBase}${to}` });
  return { ...definitionSchemas(maxStates, ref), ...guardSchemas(ref) };
}

type Ref = (to: string) => JsonSchema;

/** The definition, its meta, states and transitions. */
function definitionSchemas(maxStates: number, ref: Ref): Record<string, JsonSchema> {
  const atMost = (n: number): JsonSchema => (Number.isFinite(n) ? { maxItems: n } : {});
  return {
    MachineDefinition: {
      type: 'object',
      title: 'Machine definition (as written)',
      additionalProperties: false,
      required: ['meta', 'states', 'transitions'],
      properties: {
        meta: ref('MachineMeta'),
        states: {
          type: 'array',
          minItems: 1,
          ...atMost(maxStates),
          items: ref('MachineState'),
          description: 'Exactly one `initial` state; names unique. At most MAX_MACHINE_STATES states.',
        },
        transitions: {
          type: 'array',
          ...atMost(maxStates * TRANSITIONS_PER_STATE),
          items: ref('MachineTransition'),
          description:
            `At most ${TRANSITIONS_PER_STATE} × MAX_MACHINE_STATES. When several transitions match a trigger, ` +
            'the first whose guards pass is taken.',
        },
      },
    },
    MachineMeta: {
      type: 'object',
      additionalProperties: false,
      required: ['machine_name', 'version'],
      properties: {
        machine_name: name('Machine name'),
        version: {
          type: 'string',
          maxLength: MAX_VERSION_LENGTH,
          format: 'semver',
          description:
            'Semantic version MAJOR.MINOR.PATCH[-pre-release][+build] (semver.org 2.0.0); ' +
            `no number in it above ${Number.MAX_SAFE_INTEGER}.`,
        },
        description: text,
      },
    },
    MachineState: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'type'],
      properties: { name: name('State name'), type: { type: 'string', enum: [...STATE_TYPES] }, description: text },
    },
    MachineTransition: {
      type: 'object',
      additionalProperties: false,
      required: ['trigger', 'source', 'dest'],
      properties: {
        trigger: name('Trigger'),
        // one schema for both spellings (not anyOf), so a refusal names only what was written
        source: {
          type: ['string', 'array'],
          maxLength: MAX_NAME_LENGTH,
          pattern: '^(?:[a-z0-9_]+|\\*)$',
          minItems: 1,
          uniqueItems: true,
          items: name('State'),
          description:
            'A known state, a non-empty list of known states, or `"*"` (every non-terminal state). ' +
            'No transition leaves a terminal state.',
        },
        dest: name('A known state'),
        guards: { type: 'array', items: ref('Guard'), description: 'All must pass.' },
        description: text,
      },
    },
  };
}

/** A guard: a field check, or all / any / not of guards. */
function guardSchemas(ref: Ref): Record<string, JsonSchema> {
  const guardList: JsonSchema = { type: 'array', minItems: 1, items: ref('Guard') };
  return {
    Guard: {
      title: 'Guard',
      description: `A field check, or all/any/not of guards, nested at most ${MAX_GUARD_DEPTH} deep. Data, never code.`,
      oneOf: Object.values(GUARD_KINDS).map(ref),
    },
    FieldCheck: {
      type: 'object',
      title: 'Field check',
      additionalProperties: false,
      required: ['field', 'op'],
      properties: {
        field: {
          type: 'string',
          minLength: 1,
          description:
            'Dotted path into the context (`order.total`, `items.0.sku`); no empty segment, ' +
            'no `__proto__`, `constructor` or `prototype`.',
        },
        op: { type: 'string', enum: [...CHECK_OPS] },
        value: {
          description:
            'eq/ne: any JSON value; gt/gte/lt/lte: a number or a string; in/not_in: a list; ' +
            'exists: optional boolean (default true); matches: an RE2 pattern.',
        },
      },
      examples: [{ field: 'amount', op: 'lte', value: 1000 }],
    },
    AllGuard: combinator('all', guardList),
    AnyGuard: combinator('any', guardList),
    NotGuard: combinator('not', ref('Guard')),
  };
}

/**
 * The schema as ajv checks it, compiled once per limit, in pieces: the definition's own keys, each
 * state, each transition, each guard (against the schema of its kind: the Guard's oneOf, chosen by
 * the kind key it has, as the kinds exclude each other). Each piece takes the lists inside it as
 * they come, for validate.ts and validate-guard.ts to walk. Whole, ajv would recurse into guards as
 * deep as they nest, and it merges a refused part's errors into a copy of every error found so far,
 * which grows with the square of the errors: a 1 MB definition of faulty parts would take minutes.
 */
export interface SchemaChecks {
  readonly definition: Check;
  readonly state: Check;
  readonly transition: Check;
  readonly guard: Readonly<Record<GuardKind, Check>>;
  /** The named schemas, to read what a refusing `$ref` pointed at. */
  readonly schemas: Readonly<Record<string, JsonSchema>>;
}
export type Check = (data: unknown) => readonly ErrorObject[];

// verbose: errors carry their data and schema, which the problem messages quote
const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true, ownProperties: true });
ajv.addFormat('semver', { type: 'string', validate: isSemver });
const compiled = new Map<number, SchemaChecks>();

export function machineSchemaChecks(maxStates: number): SchemaChecks {
  let checks = compiled.get(maxStates);
  if (!checks) {
    const schemas = machineSchemas(maxStates);
    const compile = (name: string, ...walked: string[]): Check => {
      const $defs = { ...schemas, ...Object.fromEntries(walked.map((w) => [w, {}])) };
      const validate = ajv.compile({ $defs, $ref: `#/$defs/${name}` });
      return (data) => (validate(data) ? [] : (validate.errors ?? [])); // a new array each call
    };
    const guard = Object.fromEntries(Object.entries(GUARD_KINDS).map(([kind, name]) => [kind, compile(name, 'Guard')]));
    checks = {
      definition: compile('MachineDefinition', 'MachineState', 'MachineTransition'),
      state: compile('MachineState'),
      transition: compile('MachineTransition', 'Guard'),
      guard: guard as SchemaChecks['guard'],
      schemas,
    };
    compiled.set(maxStates, checks);
  }
  return checks;
}
