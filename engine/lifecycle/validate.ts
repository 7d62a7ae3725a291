// validateMachine: checks an untrusted machine definition (parsed JSON or YAML) and returns either a
// normalised MachineDef or EVERY problem found, each prefixed with where it is
// ("states[2].name: ..."), one problem a place. The shape and the limits are the JSON Schema's
// (machine-schema.ts, checked by ajv; guards one at a time, validate-guard.ts); written here are the
// rules across fields: exactly one initial state, unique state names, and transitions between
// known states, never out of a terminal state.
import type { Guard, MachineDef, MachineMeta, StateDef, TransitionDef, ValidationResult } from './types.js';
import { isPlainObject } from './json.js';
import { machineSchemaChecks, type Check, type MachineLimits } from './machine-schema.js';
import { schemaProblems } from './schema-problems.js';
import { checkGuard, copyGuard, type Report } from './validate-guard.js';

export function validateMachine(def: unknown, limits: MachineLimits = { maxStates: Infinity }): ValidationResult {
  const found = new Map<string, string>();
  if (!isWritten(def, limits, found))
    return { ok: false, problems: [...found].map(([at, message]) => `${at}: ${message}`) };
  return { ok: true, machine: normalised(def) };
}

/**
 * Every problem of `def` into `found`, one a place; none means `def` is a machine as written: its shape is the JSON
 * Schema's (machine-schema.ts), which ajv checked, and the rules across fields held.
 */
function isWritten(def: unknown, limits: MachineLimits, found: Map<string, string>): def is Written {
  // A place keeps its first problem (the schema's come first), unless a rule here overrules it.
  const report: Report = (at, message) => {
    if (!found.has(at)) found.set(at, message);
  };
  const overrule: Report = (at, message) => {
    found.set(at, message);
  };
  const checks = machineSchemaChecks(limits.maxStates);
  const schema = (check: Check, data: unknown, at = '') => {
    const errors = check(data);
    for (const [where, message] of schemaProblems(errors, checks.schemas, at)) report(where, message);
    // ajv takes any object; the rules below read plain ones (as JSON and YAML give)
    if (!errors.length && !isPlainObject(data)) report(at || '(root)', 'must be a plain object');
    return errors;
  };
  const own = schema(checks.definition, def);
  if (!isPlainObject(def)) {
    report('(root)', 'must be an object with meta, states and transitions');
  } else if (!own.some((e) => e.keyword === 'maxItems')) {
    // a list over its limit is not read
    if (Array.isArray(def.states)) def.states.forEach((s, i) => schema(checks.state, s, `states[${i}]`));
    if (Array.isArray(def.transitions)) {
      def.transitions.forEach((t, i) => {
        schema(checks.transition, t, `transitions[${i}]`);
        if (isPlainObject(t) && Array.isArray(t.guards)) {
          t.guards.forEach((g, j) => checkGuard(g, `transitions[${i}].guards[${j}]`, checks, report));
        }
      });
    }
    crossFieldProblems(def, report, overrule);
  }
  return found.size === 0;
}

// ---- the rules across fields

function crossFieldProblems(def: Record<string, unknown>, report: Report, overrule: Report): void {
  if (!Array.isArray(def.states)) return;
  const known = new Map<string, { type: unknown; index: number }>();
  const initials: string[] = [];
  def.states.forEach((s, i) => {
    if (!isPlainObject(s)) return;
    if (s.type === 'initial') initials.push(`states[${i}]`);
    if (typeof s.name !== 'string') return;
    const first = known.get(s.name);
    if (first) report(`states[${i}].name`, `duplicate state name "${s.name}" (also states[${first.index}])`);
    else known.set(s.name, { type: s.type, index: i });
  });
  if (initials.length !== 1) {
    const which = initials.length > 1 ? ` (${initials.join(', ')})` : '';
    report('states', `must have exactly one state of type "initial", found ${initials.length}${which}`);
  }
  if (known.size === 0 || !Array.isArray(def.transitions)) return;
  const reference = (name: unknown, at: string, leaving: boolean) => {
    if (typeof name !== 'string') return;
    const state = known.get(name);
    if (!state) report(at, `unknown state "${name}"`);
    else if (leaving && state.type === 'terminal') report(at, `no transition may leave terminal state "${name}"`);
  };
  def.transitions.forEach((t, i) => {
    if (!isPlainObject(t)) return;
    const at = `transitions[${i}]`;
    if (Array.isArray(t.source)) {
      t.source.forEach((name, j) => {
        // clearer than the schema's pattern, which refuses it too
        if (name === '*') overrule(`${at}.source[${j}]`, '"*" must be the whole source, not a list item');
        else reference(name, `${at}.source[${j}]`, true);
      });
    } else if (t.source !== '*') reference(t.source, `${at}.source`, true);
    reference(t.dest, `${at}.dest`, false);
  });
}

// ---- the normalised machine

interface Written {
  meta: MachineMeta;
  states: StateDef[];
  transitions: (Pick<TransitionDef, 'trigger' | 'dest' | 'description'> & {
    source: string | string[];
    guards?: Guard[];
  })[];
}

const described = <T extends object>(o: T, description: string | undefined): T =>
  description === undefined ? o : { ...o, description };

function normalised(def: Written): MachineDef {
  const states = def.states.map((s) => described<StateDef>({ name: s.name, type: s.type }, s.description));
  const nonTerminal = states.filter((s) => s.type !== 'terminal').map((s) => s.name);
  const transitions = def.transitions.map((t) =>
    described<TransitionDef>(
      {
        trigger: t.trigger,
        source: t.source === '*' ? [...nonTerminal] : Array.isArray(t.source) ? [...t.source] : [t.source],
        source_spec: Array.isArray(t.source) ? [...t.source] : t.source,
        dest: t.dest,
        guards: (t.guards ?? []).map(copyGuard),
      },
      t.description,
    ),
  );
  const meta = described<MachineMeta>(
    { machine_name: def.meta.machine_name, version: def.meta.version },
    def.meta.description,
  );
  return { meta, states, transitions, initial_state: states.find((s) => s.type === 'initial')!.name };
}
