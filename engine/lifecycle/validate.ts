// validateMachine: checks an untrusted machine definition (parsed JSON or
// YAML) and returns either a normalised MachineDef or EVERY problem found,
// each prefixed with where it is ("states[2].name: ...").
import type { Guard, MachineDef, StateDef, StateType, TransitionDef, ValidationResult } from './types.js';
import { isPlainObject, renderValue } from './json.js';
import { isSemver } from './semver.js';
import { validateGuard } from './validate-guard.js';
import { entity, history, machine } from '../schema/resources/lifecycle.js';
import { field } from '../schema/registry.js';
import type { ResourceDef } from '../schema/types.js';

const NAME = /^[a-z0-9_]+$/;
const STATE_TYPES: readonly StateType[] = ['initial', 'stable', 'terminal'];
const TOP_KEYS = ['meta', 'states', 'transitions'];
const META_KEYS = ['machine_name', 'version', 'description'];
const STATE_KEYS = ['name', 'type', 'description'];
// Strict on nested keys too: a typo such as "guard:" for "guards:" would
// otherwise silently drop every guard of a transition.
const TRANSITION_KEYS = ['trigger', 'source', 'dest', 'guards', 'description'];

/** Size bounds of a definition (its diagram, its checks); stored ones are read without them. */
export interface MachineLimits { readonly maxStates: number }
export const DEFAULT_MAX_STATES = 500;
/** Transitions a definition may have per state it may have. */
export const TRANSITIONS_PER_STATE = 10;

export function validateMachine(def: unknown, limits: MachineLimits = { maxStates: Infinity }): ValidationResult {
  const problems: string[] = [];
  if (!isPlainObject(def)) {
    return { ok: false, problems: ['(root): must be an object with meta, states and transitions'] };
  }
  const { maxStates } = limits;
  if (Array.isArray(def.states) && def.states.length > maxStates)
    return { ok: false, problems: [`states: at most ${maxStates} states (MAX_MACHINE_STATES), got ${def.states.length}`] };
  if (Array.isArray(def.transitions) && def.transitions.length > maxStates * TRANSITIONS_PER_STATE)
    return { ok: false, problems: [`transitions: at most ${maxStates * TRANSITIONS_PER_STATE} transitions (${TRANSITIONS_PER_STATE} × MAX_MACHINE_STATES), got ${def.transitions.length}`] };
  for (const key of Object.keys(def)) {
    if (!TOP_KEYS.includes(key)) problems.push(`${key}: unknown top-level key`);
  }
  const meta = validateMeta(def.meta, problems);
  const states = validateStates(def.states, problems);
  const transitions = validateTransitions(def.transitions, stateIndex(def.states), problems);

  if (problems.length > 0 || !meta || !states || !transitions) {
    return { ok: false, problems };
  }
  const initial = states.find((s) => s.type === 'initial') as StateDef;
  return { ok: true, machine: { meta, states, transitions, initial_state: initial.name } };
}

function unknownKeys(obj: Record<string, unknown>, allowed: string[], at: string, problems: string[]) {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) problems.push(`${at}.${key}: unknown key`);
  }
}

function optionalDescription(obj: Record<string, unknown>, at: string, problems: string[]): string | undefined {
  if (obj.description === undefined) return undefined;
  if (typeof obj.description !== 'string') problems.push(`${at}.description: must be a string`);
  return typeof obj.description === 'string' ? obj.description : undefined;
}

/** Lengths the stored columns hold (machine and state names, triggers; versions), from the registry. */
const maxLengthOf = (r: ResourceDef, name: string): number => field(r, name)!.maxLength!;
export const MAX_NAME_LENGTH = Math.min(maxLengthOf(machine, 'machine_name'), maxLengthOf(entity, 'state'), maxLengthOf(history, 'trigger'), maxLengthOf(history, 'target_state'));
export const MAX_VERSION_LENGTH = Math.min(maxLengthOf(machine, 'version'), maxLengthOf(entity, 'machine_version'));

function nameProblem(value: unknown): string | undefined {
  if (value === undefined) return 'required';
  if (typeof value !== 'string') return `must be a string, got ${renderValue(value)}`;
  if (value.length > MAX_NAME_LENGTH) return `must be at most ${MAX_NAME_LENGTH} characters, got ${value.length}`;
  return NAME.test(value) ? undefined : `must match ^[a-z0-9_]+$, got ${renderValue(value)}`;
}

function validateMeta(raw: unknown, problems: string[]): MachineDef['meta'] | undefined {
  if (raw === undefined) {
    problems.push('meta: required (with machine_name and version)');
    return undefined;
  }
  if (!isPlainObject(raw)) {
    problems.push('meta: must be an object');
    return undefined;
  }
  const before = problems.length;
  unknownKeys(raw, META_KEYS, 'meta', problems);
  const nameIssue = nameProblem(raw.machine_name);
  if (nameIssue) problems.push(`meta.machine_name: ${nameIssue}`);
  if (raw.version === undefined) problems.push('meta.version: required');
  else if (typeof raw.version === 'string' && raw.version.length > MAX_VERSION_LENGTH) problems.push(`meta.version: must be at most ${MAX_VERSION_LENGTH} characters, got ${raw.version.length}`);
  else if (typeof raw.version !== 'string' || !isSemver(raw.version)) {
    problems.push(`meta.version: must be a semantic version MAJOR.MINOR.PATCH, got ${renderValue(raw.version)}`);
  }
  const description = optionalDescription(raw, 'meta', problems);
  if (problems.length !== before) return undefined;
  const meta: MachineDef['meta'] = { machine_name: raw.machine_name as string, version: raw.version as string };
  if (description !== undefined) meta.description = description;
  return meta;
}

function validateStates(raw: unknown, problems: string[]): StateDef[] | undefined {
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.push(raw === undefined ? 'states: required' : 'states: must be a non-empty list');
    return undefined;
  }
  const before = problems.length;
  const states: StateDef[] = [];
  const seen = new Map<string, number>();
  raw.forEach((s, i) => {
    const at = `states[${i}]`;
    if (!isPlainObject(s)) {
      problems.push(`${at}: must be an object with name and type`);
      return;
    }
    unknownKeys(s, STATE_KEYS, at, problems);
    const nameIssue = nameProblem(s.name);
    if (nameIssue) problems.push(`${at}.name: ${nameIssue}`);
    else if (seen.has(s.name as string)) {
      problems.push(`${at}.name: duplicate state name "${s.name}" (also states[${seen.get(s.name as string)}])`);
    } else seen.set(s.name as string, i);
    if (s.type === undefined) problems.push(`${at}.type: required (one of ${STATE_TYPES.join(', ')})`);
    else if (typeof s.type !== 'string' || !(STATE_TYPES as readonly string[]).includes(s.type)) {
      problems.push(`${at}.type: must be one of ${STATE_TYPES.join(', ')}, got ${renderValue(s.type)}`);
    }
    const description = optionalDescription(s, at, problems);
    const state: StateDef = { name: s.name as string, type: s.type as StateType };
    if (description !== undefined) state.description = description;
    states.push(state);
  });
  const initials = raw
    .map((s, i) => (isPlainObject(s) && s.type === 'initial' ? `states[${i}]` : undefined))
    .filter((x): x is string => x !== undefined);
  if (initials.length !== 1) {
    problems.push(
      `states: must have exactly one state of type "initial", found ${initials.length}` +
        (initials.length > 1 ? ` (${initials.join(', ')})` : ''),
    );
  }
  return problems.length === before ? states : undefined;
}

/**
 * Well-named states and their types (undefined when the type is faulty), so
 * transition references are still checked when some other state is faulty.
 * Undefined when there is no usable state list at all, to avoid reporting
 * every reference as unknown.
 */
function stateIndex(raw: unknown): Map<string, StateType | undefined> | undefined {
  if (!Array.isArray(raw) || raw.length === 0) return undefined;
  const known = new Map<string, StateType | undefined>();
  for (const s of raw) {
    if (!isPlainObject(s) || nameProblem(s.name) !== undefined || known.has(s.name as string)) continue;
    const type = (STATE_TYPES as readonly unknown[]).includes(s.type) ? (s.type as StateType) : undefined;
    known.set(s.name as string, type);
  }
  return known;
}

function validateTransitions(
  raw: unknown,
  known: Map<string, StateType | undefined> | undefined,
  problems: string[],
): TransitionDef[] | undefined {
  if (raw === undefined) {
    problems.push('transitions: required (may be an empty list)');
    return undefined;
  }
  if (!Array.isArray(raw)) {
    problems.push('transitions: must be a list');
    return undefined;
  }
  const nonTerminal = known ? [...known].filter(([, type]) => type !== 'terminal').map(([name]) => name) : [];
  const before = problems.length;
  const out: TransitionDef[] = [];
  raw.forEach((t, i) => {
    const at = `transitions[${i}]`;
    if (!isPlainObject(t)) {
      problems.push(`${at}: must be an object with trigger, source and dest`);
      return;
    }
    unknownKeys(t, TRANSITION_KEYS, at, problems);
    const triggerIssue = nameProblem(t.trigger);
    if (triggerIssue) problems.push(`${at}.trigger: ${triggerIssue}`);

    const source = validateSource(t.source, `${at}.source`, known, nonTerminal, problems);

    const destIssue = nameProblem(t.dest);
    if (destIssue) problems.push(`${at}.dest: ${destIssue}`);
    else if (known && !known.has(t.dest as string)) problems.push(`${at}.dest: unknown state "${t.dest}"`);

    const guards: Guard[] = [];
    if (t.guards !== undefined) {
      if (!Array.isArray(t.guards)) problems.push(`${at}.guards: must be a list of guards`);
      else {
        t.guards.forEach((g, j) => {
          const guard = validateGuard(g, `${at}.guards[${j}]`, problems);
          if (guard) guards.push(guard);
        });
      }
    }
    const description = optionalDescription(t, at, problems);
    const transition: TransitionDef = {
      trigger: t.trigger as string,
      source: source ?? [],
      source_spec: Array.isArray(t.source) ? [...(t.source as string[])] : (t.source as string),
      dest: t.dest as string,
      guards,
    };
    if (description !== undefined) transition.description = description;
    out.push(transition);
  });
  return problems.length === before && known ? out : undefined;
}

/** Concrete source states, with "*" expanded to every non-terminal state. */
function validateSource(
  raw: unknown,
  at: string,
  known: Map<string, StateType | undefined> | undefined,
  nonTerminal: string[],
  problems: string[],
): string[] | undefined {
  if (raw === '*') return [...nonTerminal];
  if (raw === undefined) {
    problems.push(`${at}: required (a state, a list of states, or "*")`);
    return undefined;
  }
  const list = Array.isArray(raw) ? raw : [raw];
  const where = (j: number) => (Array.isArray(raw) ? `${at}[${j}]` : at);
  if (list.length === 0) {
    problems.push(`${at}: must not be an empty list`);
    return undefined;
  }
  const before = problems.length;
  const seen = new Set<string>();
  list.forEach((name, j) => {
    if (name === '*') {
      problems.push(`${where(j)}: "*" must be the whole source, not a list item`);
      return;
    }
    const issue = nameProblem(name);
    if (issue) {
      problems.push(`${where(j)}: ${issue}`);
      return;
    }
    const n = name as string;
    if (seen.has(n)) problems.push(`${where(j)}: duplicate source state "${n}"`);
    seen.add(n);
    if (!known) return;
    if (!known.has(n)) problems.push(`${where(j)}: unknown state "${n}"`);
    else if (known.get(n) === 'terminal') problems.push(`${where(j)}: no transition may leave terminal state "${n}"`);
  });
  return problems.length === before ? [...seen] : undefined;
}
