// Shapes of lifecycle machines and the entities held in them.
// A MachineDef is only ever produced by validateMachine(), so code that
// receives one may rely on every invariant listed here.

export type StateType = 'initial' | 'stable' | 'terminal';

export interface StateDef {
  name: string;
  type: StateType;
  description?: string;
}

/** Operators of a field check. */
export type CheckOp = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'not_in' | 'exists' | 'matches';

export const CHECK_OPS: readonly CheckOp[] = [
  'eq',
  'ne',
  'gt',
  'gte',
  'lt',
  'lte',
  'in',
  'not_in',
  'exists',
  'matches',
];

/**
 * A single check on one field of the context.
 * `value` shape depends on `op`: any JSON value for eq/ne, number or string
 * for gt/gte/lt/lte, a list for in/not_in, an optional boolean for exists
 * (default true), an RE2 pattern string for matches.
 */
export interface FieldCheck {
  field: string;
  op: CheckOp;
  value?: unknown;
}

export interface AllGuard {
  all: Guard[];
}

export interface AnyGuard {
  any: Guard[];
}

export interface NotGuard {
  not: Guard;
}

export type Guard = FieldCheck | AllGuard | AnyGuard | NotGuard;

export interface TransitionDef {
  trigger: string;
  /** Concrete source states; "*" already expanded to every non-terminal state. */
  source: string[];
  /** The source exactly as written in the definition ("*", a name, or a list). */
  source_spec: string | string[];
  dest: string;
  /** Always present; empty means unguarded. All must pass. */
  guards: Guard[];
  description?: string;
}

export interface MachineMeta {
  machine_name: string;
  version: string;
  description?: string;
}

export interface MachineDef {
  meta: MachineMeta;
  states: StateDef[];
  transitions: TransitionDef[];
  /** Name of the single state of type "initial". */
  initial_state: string;
}

/** Where one entity currently stands in one machine. */
export interface EntityState {
  entity_id: string;
  machine_name: string;
  machine_version: string;
  state: string;
  context: Record<string, unknown>;
  /** Optimistic-concurrency counter, bumped by the store on every change. */
  version: number;
}

export interface TransitionEvent {
  trigger: string;
  context?: Record<string, unknown>;
}

export type TransitionResult =
  | {
      ok: true;
      target_state: string;
      source_state: string;
      /** Entity context with the event context shallow-merged over it; store this. */
      context: Record<string, unknown>;
      /** Index into MachineDef.transitions of the transition taken. */
      transitionIndex: number;
    }
  | { ok: false; code: 'invalid_transition'; available: string[] }
  | { ok: false; code: 'guard_rejected'; guard: Guard; description: string };

export type GuardResult = { pass: true } | { pass: false; failed: Guard; description: string };

export type ValidationResult = { ok: true; machine: MachineDef } | { ok: false; problems: string[] };
