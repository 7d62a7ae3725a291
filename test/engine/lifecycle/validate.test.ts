import { readFileSync } from 'node:fs';
// chai 6 ships no type declarations and @types/chai is not installed.
// @ts-ignore -- harmless once typings exist
import { expect } from 'chai';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { validateMachine, type MachineDef } from '../../../engine/lifecycle/index.js';
import {
  MAX_NAME_LENGTH,
  MAX_VERSION_LENGTH,
  TRANSITIONS_PER_STATE,
} from '../../../engine/lifecycle/machine-schema.js';
import { REPO_URL } from '../../support/paths.js';

// A small valid machine; tests copy it and break one thing at a time.
function base(): Record<string, any> {
  return {
    meta: { machine_name: 'door', version: '1.0.0' },
    states: [
      { name: 'closed', type: 'initial' },
      { name: 'open', type: 'stable' },
      { name: 'broken', type: 'terminal' },
    ],
    transitions: [
      { trigger: 'open', source: 'closed', dest: 'open' },
      { trigger: 'close', source: ['open'], dest: 'closed' },
      { trigger: 'smash', source: '*', dest: 'broken' },
    ],
  };
}

function withGuard(guard: unknown): Record<string, any> {
  const def = base();
  def.transitions[0].guards = [guard];
  return def;
}

function problemsOf(def: unknown): string[] {
  const r = validateMachine(def);
  if (r.ok) throw new Error('expected validation to fail');
  return r.problems;
}

function machineOf(def: unknown): MachineDef {
  const r = validateMachine(def);
  if (!r.ok) throw new Error(`expected a valid machine, got: ${r.problems.join(' | ')}`);
  return r.machine;
}

/** Asserts some problem starts with the location and mentions the text. */
function expectProblem(problems: string[], location: string, text = ''): void {
  const hit = problems.some((p) => p.startsWith(`${location}: `) && p.includes(text));
  expect(hit, `no problem "${location}: …${text}…" in:\n  ${problems.join('\n  ')}`).to.equal(true);
}

const machineFile = (name: string) => parseYaml(readFileSync(new URL(`machines/${name}`, REPO_URL), 'utf8'));

describe('lifecycle validateMachine: valid definitions', () => {
  it('accepts a minimal machine and records its initial state', () => {
    const m = machineOf(base());
    expect(m.meta).to.deep.equal({ machine_name: 'door', version: '1.0.0' });
    expect(m.initial_state).to.equal('closed');
    expect(m.states.map((s) => s.name)).to.deep.equal(['closed', 'open', 'broken']);
  });

  it('normalises a single source name to a one-item list and keeps the original', () => {
    const t = machineOf(base()).transitions[0];
    expect(t.source).to.deep.equal(['closed']);
    expect(t.source_spec).to.equal('closed');
  });

  it('expands a "*" source to every non-terminal state (terminal excluded, initial included)', () => {
    const t = machineOf(base()).transitions[2];
    expect(t.source).to.deep.equal(['closed', 'open']);
    expect(t.source_spec).to.equal('*');
  });

  it('gives every transition a guards list, empty when unguarded', () => {
    for (const t of machineOf(base()).transitions) expect(t.guards).to.deep.equal([]);
  });

  it('accepts an empty transitions list', () => {
    const def = base();
    def.transitions = [];
    expect(machineOf(def).transitions).to.deep.equal([]);
  });

  it('accepts optional descriptions on meta, states and transitions', () => {
    const def = base();
    def.meta.description = 'a door';
    def.states[0].description = 'shut';
    def.transitions[0].description = 'swing it';
    const m = machineOf(def);
    expect(m.meta.description).to.equal('a door');
    expect(m.states[0].description).to.equal('shut');
    expect(m.transitions[0].description).to.equal('swing it');
  });

  it('accepts pre-release and build versions', () => {
    for (const version of ['0.0.1', '1.0.0-rc.1', '2.3.4+build.7', '10.20.30-alpha.beta+exp.sha.5114f85']) {
      const def = base();
      def.meta.version = version;
      expect(validateMachine(def).ok, version).to.equal(true);
    }
  });

  it('accepts every guard op and combinator in well-formed shape', () => {
    const def = withGuard({
      all: [
        { field: 'a', op: 'eq', value: { x: [1, null] } },
        { field: 'a', op: 'ne', value: null },
        { field: 'n', op: 'gt', value: 1 },
        { field: 'n', op: 'gte', value: 'b' },
        { field: 'n', op: 'lt', value: -1.5 },
        { field: 'n', op: 'lte', value: 0 },
        { field: 'c', op: 'in', value: [1, 'x', null] },
        { field: 'c', op: 'not_in', value: [] },
        { field: 'd', op: 'exists' },
        { field: 'd', op: 'exists', value: false },
        { field: 'e.f.0', op: 'matches', value: '^[a-z]+\\d{2}$' },
        { any: [{ not: { field: 'x', op: 'exists' } }, { field: 'y', op: 'eq', value: true }] },
      ],
    });
    expect(machineOf(def).transitions[0].guards).to.have.length(1);
  });

  it('returns a copy: mutating the input afterwards does not change the machine', () => {
    const def = withGuard({ field: 'n', op: 'in', value: [1, 2] });
    const m = machineOf(def);
    def.transitions[0].guards[0].value.push(3);
    def.states[0].name = 'changed';
    def.transitions[0].source = 'open';
    expect((m.transitions[0].guards[0] as { value: unknown }).value).to.deep.equal([1, 2]);
    expect(m.states[0].name).to.equal('closed');
    expect(m.transitions[0].source).to.deep.equal(['closed']);
  });

  it('validates machines/device_lifecycle.yaml', () => {
    const m = machineOf(machineFile('device_lifecycle.yaml'));
    expect(m.meta.machine_name).to.equal('device_lifecycle');
    expect(m.initial_state).to.equal('planned');
    for (const s of ['planned', 'staged', 'active', 'decommissioning', 'retired']) {
      expect(m.states.map((x) => x.name)).to.include(s);
    }
    expect(m.transitions.map((t) => t.trigger)).to.include.members(['fail', 'rma', 'activate']);
  });

  it('validates machines/order_flow.yaml', () => {
    const m = machineOf(machineFile('order_flow.yaml'));
    expect(m.meta.machine_name).to.equal('order_flow');
    expect(m.initial_state).to.equal('created');
    expect(m.transitions.filter((t) => t.trigger === 'refund')).to.have.length.greaterThan(0);
  });
});

describe('lifecycle validateMachine: document shape', () => {
  for (const [label, value] of [
    ['null', null],
    ['a list', []],
    ['a string', 'meta: x'],
    ['a number', 3],
    ['undefined', undefined],
  ] as const) {
    it(`refuses ${label} as the root`, () => {
      expectProblem(problemsOf(value), '(root)', 'must be an object');
    });
  }

  it('reports unknown top-level keys', () => {
    const def = { ...base(), extra: 1, Transitions: [] };
    const problems = problemsOf(def);
    expectProblem(problems, 'extra', 'unknown top-level key');
    expectProblem(problems, 'Transitions', 'unknown top-level key');
  });

  it('reports a "__proto__" key from JSON as an unknown top-level key', () => {
    const def = JSON.parse(`{"__proto__": {"x": 1}, ${JSON.stringify(base()).slice(1)}`);
    expectProblem(problemsOf(def), '__proto__', 'unknown top-level key');
  });

  it('requires meta, states and transitions', () => {
    const problems = problemsOf({});
    expectProblem(problems, 'meta', 'required');
    expectProblem(problems, 'states', 'required');
    expectProblem(problems, 'transitions', 'required');
  });

  it('refuses unknown keys in meta, states and transitions (e.g. "guard" for "guards")', () => {
    const def = base();
    def.meta.owner = 'me';
    def.states[1].colour = 'red';
    def.transitions[0].guard = [{ field: 'a', op: 'exists' }];
    const problems = problemsOf(def);
    expectProblem(problems, 'meta.owner', 'unknown key');
    expectProblem(problems, 'states[1].colour', 'unknown key');
    expectProblem(problems, 'transitions[0].guard', 'unknown key');
  });

  it('refuses non-string descriptions', () => {
    const def = base();
    def.meta.description = 5;
    def.transitions[1].description = ['x'];
    const problems = problemsOf(def);
    expectProblem(problems, 'meta.description', 'string');
    expectProblem(problems, 'transitions[1].description', 'string');
  });
});

describe('lifecycle validateMachine: meta', () => {
  it('refuses a meta that is not an object', () => {
    const def = base();
    def.meta = 'door';
    expectProblem(problemsOf(def), 'meta', 'must be an object');
  });

  it('requires machine_name and version', () => {
    const def = base();
    def.meta = {};
    const problems = problemsOf(def);
    expectProblem(problems, 'meta.machine_name', 'required');
    expectProblem(problems, 'meta.version', 'required');
  });

  for (const name of ['Door', 'door-1', 'door lifecycle', '', 'dóor', 7]) {
    it(`refuses machine_name ${JSON.stringify(name)}`, () => {
      const def = base();
      def.meta.machine_name = name;
      expectProblem(problemsOf(def), 'meta.machine_name', 'must');
    });
  }

  for (const version of ['1.0', '1', 'v1.0.0', '01.0.0', '1.0.0.0', '1.0.0-', '1.0.0-01', '1.0.0+', ' 1.0.0', '', 1]) {
    it(`refuses version ${JSON.stringify(version)}`, () => {
      const def = base();
      def.meta.version = version;
      expectProblem(problemsOf(def), 'meta.version', 'semantic version');
    });
  }
});

describe('lifecycle validateMachine: states', () => {
  it('refuses a missing, empty or non-list states', () => {
    for (const states of [[], 'closed', { closed: 'initial' }]) {
      const def = base();
      def.states = states;
      expectProblem(problemsOf(def), 'states', 'non-empty list');
    }
  });

  it('refuses a machine with no initial state', () => {
    const def = base();
    def.states[0].type = 'stable';
    expectProblem(problemsOf(def), 'states', 'exactly one state of type "initial", found 0');
  });

  it('refuses a machine with two initial states, naming both', () => {
    const def = base();
    def.states[1].type = 'initial';
    expectProblem(problemsOf(def), 'states', 'found 2 (states[0], states[1])');
  });

  it('refuses duplicate state names', () => {
    const def = base();
    def.states.push({ name: 'open', type: 'stable' });
    expectProblem(problemsOf(def), 'states[3].name', 'duplicate state name "open"');
  });

  for (const name of ['Open', 'open-door', 'open door', '', 12, null]) {
    it(`refuses state name ${JSON.stringify(name)}`, () => {
      const def = base();
      def.states[1].name = name;
      expectProblem(problemsOf(def), 'states[1].name');
    });
  }

  it('requires a state name and type', () => {
    const def = base();
    def.states.push({});
    const problems = problemsOf(def);
    expectProblem(problems, 'states[3].name', 'required');
    expectProblem(problems, 'states[3].type', 'required');
  });

  for (const type of ['final', 'Initial', '', 1]) {
    it(`refuses state type ${JSON.stringify(type)}`, () => {
      const def = base();
      def.states[1].type = type;
      expectProblem(problemsOf(def), 'states[1].type', 'initial, stable, terminal');
    });
  }

  it('refuses a state that is not an object', () => {
    const def = base();
    def.states.push('open');
    expectProblem(problemsOf(def), 'states[3]', 'must be an object');
  });
});

describe('lifecycle validateMachine: transitions', () => {
  it('refuses transitions that is not a list', () => {
    const def = base();
    def.transitions = { open: 'closed' };
    expectProblem(problemsOf(def), 'transitions', 'must be a list');
  });

  it('refuses a transition that is not an object', () => {
    const def = base();
    def.transitions.push(['open']);
    expectProblem(problemsOf(def), 'transitions[3]', 'must be an object');
  });

  for (const trigger of ['Open', 'open-it', 'open it', '', undefined, 3]) {
    it(`refuses trigger ${JSON.stringify(trigger)}`, () => {
      const def = base();
      def.transitions[0].trigger = trigger;
      expectProblem(problemsOf(def), 'transitions[0].trigger');
    });
  }

  it('refuses an unknown source state', () => {
    const def = base();
    def.transitions[0].source = 'ajar';
    expectProblem(problemsOf(def), 'transitions[0].source', 'unknown state "ajar"');
  });

  it('refuses an unknown state inside a source list, pointing at the item', () => {
    const def = base();
    def.transitions[1].source = ['open', 'ajar'];
    expectProblem(problemsOf(def), 'transitions[1].source[1]', 'unknown state "ajar"');
  });

  it('refuses an unknown dest state', () => {
    const def = base();
    def.transitions[0].dest = 'ajar';
    expectProblem(problemsOf(def), 'transitions[0].dest', 'unknown state "ajar"');
  });

  it('requires source and dest', () => {
    const def = base();
    def.transitions.push({ trigger: 'x' });
    const problems = problemsOf(def);
    expectProblem(problems, 'transitions[3].source', 'required');
    expectProblem(problems, 'transitions[3].dest', 'required');
  });

  it('refuses an empty source list', () => {
    const def = base();
    def.transitions[1].source = [];
    expectProblem(problemsOf(def), 'transitions[1].source', 'empty list');
  });

  it('refuses a duplicate state in a source list', () => {
    const def = base();
    def.transitions[1].source = ['open', 'open'];
    expectProblem(problemsOf(def), 'transitions[1].source[1]', 'duplicate');
  });

  it('refuses "*" as an item of a source list', () => {
    const def = base();
    def.transitions[1].source = ['open', '*'];
    expectProblem(problemsOf(def), 'transitions[1].source[1]', '"*" must be the whole source');
  });

  it('refuses a transition out of a terminal state', () => {
    const def = base();
    def.transitions.push({ trigger: 'repair', source: 'broken', dest: 'closed' });
    expectProblem(problemsOf(def), 'transitions[3].source', 'terminal state "broken"');
  });

  it('refuses a terminal state inside a source list', () => {
    const def = base();
    def.transitions.push({ trigger: 'reset', source: ['open', 'broken'], dest: 'closed' });
    expectProblem(problemsOf(def), 'transitions[3].source[1]', 'terminal state "broken"');
  });

  it('allows a "*" source even though terminal states exist', () => {
    expect(validateMachine(base()).ok).to.equal(true);
  });

  it('allows transitions into the initial state and self-loops', () => {
    const def = base();
    def.transitions.push({ trigger: 'knock', source: 'closed', dest: 'closed' });
    expect(validateMachine(def).ok).to.equal(true);
  });

  it('still checks state references when another state is faulty', () => {
    const def = base();
    def.states[1].type = 'ajar';
    def.transitions[0].dest = 'nowhere';
    const problems = problemsOf(def);
    expectProblem(problems, 'states[1].type');
    expectProblem(problems, 'transitions[0].dest', 'unknown state "nowhere"');
  });

  it('refuses guards that is not a list', () => {
    const def = base();
    def.transitions[0].guards = { field: 'a', op: 'exists' };
    expectProblem(problemsOf(def), 'transitions[0].guards', 'must be a list');
  });
});

describe('lifecycle validateMachine: guards', () => {
  const at = 'transitions[0].guards[0]';

  it('refuses an unknown op', () => {
    expectProblem(problemsOf(withGuard({ field: 'a', op: 'like', value: 'x' })), `${at}.op`, 'unknown op "like"');
  });

  it('requires an op on a field check', () => {
    expectProblem(problemsOf(withGuard({ field: 'a', value: 1 })), `${at}.op`, 'required');
  });

  it('refuses a guard that is not an object', () => {
    expectProblem(problemsOf(withGuard('a > 1')), at, 'must be an object');
  });

  it('refuses a guard with none of field/all/any/not', () => {
    expectProblem(problemsOf(withGuard({ op: 'eq', value: 1 })), at, 'must have one of');
  });

  it('refuses a guard mixing field and a combinator', () => {
    expectProblem(problemsOf(withGuard({ field: 'a', op: 'exists', all: [] })), at, 'more than one');
  });

  it('refuses unknown keys in a field check (e.g. "vaule")', () => {
    expectProblem(problemsOf(withGuard({ field: 'a', op: 'eq', vaule: 1, value: 1 })), `${at}.vaule`, 'unknown key');
  });

  it('refuses extra keys next to a combinator', () => {
    expectProblem(problemsOf(withGuard({ not: { field: 'a', op: 'exists' }, op: 'eq' })), `${at}.op`, 'unknown key');
  });

  it('refuses a non-string field', () => {
    expectProblem(problemsOf(withGuard({ field: ['a'], op: 'exists' })), `${at}.field`, 'must be a string');
  });

  for (const segment of ['__proto__', 'constructor', 'prototype']) {
    it(`refuses the path segment ${segment} anywhere in a field path`, () => {
      for (const field of [segment, `order.${segment}`, `${segment}.polluted`, `a.${segment}.b`]) {
        expectProblem(
          problemsOf(withGuard({ field, op: 'exists' })),
          `${at}.field`,
          `forbidden path segment "${segment}"`,
        );
      }
    });
  }

  it('refuses forbidden segments nested deep inside combinators', () => {
    const guard = { all: [{ any: [{ not: { field: 'x.__proto__.y', op: 'exists' } }] }] };
    expectProblem(problemsOf(withGuard(guard)), `${at}.all[0].any[0].not.field`, 'forbidden path segment');
  });

  it('refuses empty path segments', () => {
    for (const field of ['', 'a..b', '.a', 'a.']) {
      expectProblem(problemsOf(withGuard({ field, op: 'exists' })), `${at}.field`);
    }
  });

  for (const op of ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'matches']) {
    it(`requires a value for op ${op}`, () => {
      expectProblem(problemsOf(withGuard({ field: 'a', op })), `${at}.value`, 'required');
    });
  }

  for (const [label, value] of [
    ['true', true],
    ['null', null],
    ['[1]', [1]],
    ['{n:1}', { n: 1 }],
    ['Infinity', Infinity],
    ['NaN', NaN],
  ] as const) {
    it(`refuses ${label} as a value for a comparison op`, () => {
      expectProblem(
        problemsOf(withGuard({ field: 'a', op: 'lte', value })),
        `${at}.value`,
        'finite number or a string',
      );
    });
  }

  it('refuses a non-list value for in / not_in', () => {
    for (const op of ['in', 'not_in']) {
      expectProblem(problemsOf(withGuard({ field: 'a', op, value: 'abc' })), `${at}.value`, 'must be a list');
    }
  });

  it('refuses non-JSON values for eq and in', () => {
    expectProblem(problemsOf(withGuard({ field: 'a', op: 'eq', value: () => 1 })), `${at}.value`, 'JSON');
    expectProblem(problemsOf(withGuard({ field: 'a', op: 'in', value: [Infinity] })), `${at}.value`, 'JSON');
  });

  it('refuses a non-boolean value for exists', () => {
    expectProblem(problemsOf(withGuard({ field: 'a', op: 'exists', value: 'yes' })), `${at}.value`, 'optional boolean');
  });

  it('refuses a non-string pattern for matches', () => {
    expectProblem(problemsOf(withGuard({ field: 'a', op: 'matches', value: 5 })), `${at}.value`, 'pattern string');
  });

  it('refuses a pattern that does not compile in RE2', () => {
    for (const pattern of ['(', '[a-', 'a**', '(?=a)b', '(a)\\1']) {
      expectProblem(problemsOf(withGuard({ field: 'a', op: 'matches', value: pattern })), `${at}.value`, 'RE2');
    }
  });

  it('refuses all/any that are not non-empty lists', () => {
    for (const kind of ['all', 'any']) {
      for (const value of [[], {}, 'x']) {
        expectProblem(problemsOf(withGuard({ [kind]: value })), `${at}.${kind}`, 'non-empty list');
      }
    }
  });

  it('refuses a not whose operand is not a guard', () => {
    expectProblem(problemsOf(withGuard({ not: [{ field: 'a', op: 'exists' }] })), `${at}.not`, 'must be an object');
  });

  it('refuses guards nested deeper than 32 levels', () => {
    let guard: unknown = { field: 'a', op: 'exists' };
    for (let i = 0; i < 40; i++) guard = { not: guard };
    const problems = problemsOf(withGuard(guard));
    expect(problems).to.have.length(1);
    expect(problems[0]).to.match(/^transitions\[0\]\.guards\[0\](\.not)+: guard nesting deeper than 32 levels$/);
  });

  it('points at the faulty child inside combinators', () => {
    const guard = { any: [{ field: 'a', op: 'exists' }, { all: [{ field: 'b', op: 'gt', value: [] }] }] };
    expectProblem(problemsOf(withGuard(guard)), `${at}.any[1].all[0].value`);
  });
});

describe('lifecycle validateMachine: limits (carried by the JSON Schema)', () => {
  it('refuses names, states, triggers and versions longer than their stored columns, naming the limit', () => {
    const long = 'n'.repeat(MAX_NAME_LENGTH + 1);
    const def = base();
    def.meta.machine_name = long;
    def.meta.version = `1.0.0-${'a'.repeat(MAX_VERSION_LENGTH)}`;
    def.states[1].name = long;
    def.transitions[0].trigger = long;
    def.transitions[1].source = [long];
    const problems = problemsOf(def);
    expectProblem(problems, 'meta.machine_name', `at most ${MAX_NAME_LENGTH} characters, got ${MAX_NAME_LENGTH + 1}`);
    expectProblem(problems, 'meta.version', `at most ${MAX_VERSION_LENGTH} characters`);
    expectProblem(problems, 'states[1].name', `at most ${MAX_NAME_LENGTH} characters`);
    expectProblem(problems, 'transitions[0].trigger', `at most ${MAX_NAME_LENGTH} characters`);
    expectProblem(problems, 'transitions[1].source[0]', `at most ${MAX_NAME_LENGTH} characters`);
  });

  it('accepts names and versions at their limits', () => {
    const def = base();
    def.meta.machine_name = 'n'.repeat(MAX_NAME_LENGTH);
    def.meta.version = `1.0.0-${'a'.repeat(MAX_VERSION_LENGTH - 6)}`;
    expect(machineOf(def).meta.version).to.have.length(MAX_VERSION_LENGTH);
  });

  it('refuses more states than maxStates and more transitions than ten per state, naming the setting', () => {
    const limited = (def: unknown, maxStates: number): string[] => {
      const r = validateMachine(def, { maxStates });
      return r.ok ? [] : r.problems;
    };
    const def = base();
    expect(limited(def, 3)).to.deep.equal([]);
    expectProblem(limited(def, 2), 'states', 'at most 2 states (MAX_MACHINE_STATES), got 3');
    const moves = 3 * TRANSITIONS_PER_STATE;
    def.transitions = Array.from({ length: moves + 1 }, (_, i) => ({
      trigger: `t${i}`,
      source: 'closed',
      dest: 'open',
    }));
    expectProblem(
      limited(def, 3),
      'transitions',
      `at most ${moves} transitions (${TRANSITIONS_PER_STATE} × MAX_MACHINE_STATES), got ${moves + 1}`,
    );
    expect(validateMachine(def).ok, 'no limit given: unbounded (stored definitions are read so)').to.equal(true);
  });

  it('refuses a version with a number above Number.MAX_SAFE_INTEGER', () => {
    const def = base();
    def.meta.version = '99999999999999999999.0.0';
    expectProblem(problemsOf(def), 'meta.version', 'semantic version');
    def.meta.version = '9007199254740991.0.0';
    expect(validateMachine(def).ok).to.equal(true);
  });
});

describe('lifecycle validateMachine: every problem at once', () => {
  it('reports every fault of a definition with many faults in one call', () => {
    const def = {
      meta: { machine_name: 'Bad Name', version: '1.0' },
      states: [
        { name: 'a', type: 'initial' },
        { name: 'a', type: 'stable' },
        { name: 'B', type: 'weird' },
        { name: 'end', type: 'terminal' },
      ],
      transitions: [
        { trigger: 'Go!', source: 'a', dest: 'nowhere' },
        { trigger: 'leave', source: 'end', dest: 'a' },
        { trigger: 'x', source: ['a', 'ghost'], dest: 'a', guards: [{ field: 'n', op: 'approx', value: 1 }] },
        { trigger: 'y', source: 'a', dest: 'a', guards: [{ field: 'o.__proto__.p', op: 'matches', value: '(' }] },
      ],
      colour: 'blue',
    };
    const problems = problemsOf(def);
    expectProblem(problems, 'colour', 'unknown top-level key');
    expectProblem(problems, 'meta.machine_name');
    expectProblem(problems, 'meta.version');
    expectProblem(problems, 'states[1].name', 'duplicate');
    expectProblem(problems, 'states[2].name');
    expectProblem(problems, 'states[2].type');
    expectProblem(problems, 'transitions[0].trigger');
    expectProblem(problems, 'transitions[0].dest', 'unknown state "nowhere"');
    expectProblem(problems, 'transitions[1].source', 'terminal state "end"');
    expectProblem(problems, 'transitions[2].source[1]', 'unknown state "ghost"');
    expectProblem(problems, 'transitions[2].guards[0].op', 'unknown op');
    expectProblem(problems, 'transitions[3].guards[0].field', 'forbidden');
    expectProblem(problems, 'transitions[3].guards[0].value', 'RE2');
    expect(problems).to.have.length(13);
  });

  it('gives every problem a location prefix', () => {
    const problems = problemsOf({ meta: 1, states: [{}], transitions: [{}], x: 1 });
    for (const p of problems) expect(p).to.match(/^[^\s:]+: \S/);
  });
});

describe('lifecycle validateMachine: robustness', () => {
  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withBigInt: true, withMap: true, withSet: true }), (v) => {
        const r = validateMachine(v);
        expect(typeof r.ok).to.equal('boolean');
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on machine-shaped documents with random parts', () => {
    const name = fc.constantFrom('a', 'b', 'c', 'Bad', '*', '', '__proto__');
    const guard = fc.record({
      field: fc.constantFrom('x', 'x.y', '__proto__', 'a..b'),
      op: fc.string(),
      value: fc.jsonValue(),
    });
    const doc = fc.record({
      meta: fc.record({ machine_name: name, version: fc.constantFrom('1.0.0', '1.0', 'x') }),
      states: fc.array(fc.record({ name, type: fc.constantFrom('initial', 'stable', 'terminal', 'x') })),
      transitions: fc.array(
        fc.record({ trigger: name, source: fc.oneof(name, fc.array(name)), dest: name, guards: fc.array(guard) }),
      ),
    });
    fc.assert(
      fc.property(doc, (d) => {
        const r = validateMachine(d);
        if (!r.ok) expect(r.problems.length).to.be.greaterThan(0);
      }),
      { numRuns: 500 },
    );
  });
});
