import { readFileSync } from 'node:fs';
// chai 6 ships no type declarations and @types/chai is not installed.
// @ts-ignore -- harmless once typings exist
import { expect } from 'chai';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import {
  availableTriggers,
  transition,
  validateMachine,
  type EntityState,
  type MachineDef,
  type TransitionResult,
} from '../../../engine/lifecycle/index.js';
import { REPO_URL } from '../../support/paths.js';

function machineOf(def: unknown): MachineDef {
  const r = validateMachine(def);
  if (!r.ok) throw new Error(`invalid test machine: ${r.problems.join(' | ')}`);
  return r.machine;
}

const fromFile = (name: string) => machineOf(parseYaml(readFileSync(new URL(`machines/${name}`, REPO_URL), 'utf8')));

// An order machine written inline so the tests do not depend on the example file's details.
const order = machineOf({
  meta: { machine_name: 'order', version: '1.0.0' },
  states: [
    { name: 'created', type: 'initial' },
    { name: 'paid', type: 'stable' },
    { name: 'shipped', type: 'stable' },
    { name: 'cancelled', type: 'terminal' },
    { name: 'refunded', type: 'terminal' },
    { name: 'escalated', type: 'terminal' },
  ],
  transitions: [
    /* 0 */ { trigger: 'pay', source: 'created', dest: 'paid', guards: [{ field: 'amount', op: 'gt', value: 0 }] },
    /* 1 */ { trigger: 'ship', source: 'paid', dest: 'shipped', guards: [{ field: 'tracking', op: 'exists' }] },
    /* 2 */ { trigger: 'cancel', source: ['created', 'paid'], dest: 'cancelled' },
    /* 3 */ {
      trigger: 'refund',
      source: ['paid', 'shipped'],
      dest: 'refunded',
      guards: [{ field: 'refund', op: 'lte', value: 1000 }],
    },
    /* 4 */ {
      trigger: 'refund',
      source: ['paid', 'shipped'],
      dest: 'refunded',
      guards: [{ field: 'approved_by', op: 'exists' }],
    },
    /* 5 */ {
      trigger: 'escalate',
      source: '*',
      dest: 'escalated',
      guards: [{ field: 'ticket', op: 'matches', value: '^T-[0-9]+$' }],
    },
    /* 6 */ { trigger: 'note', source: '*', dest: 'created' },
    /* 7 */ { trigger: 'note', source: '*', dest: 'paid' },
  ],
});

function entity(state: string, context: Record<string, unknown> = {}): EntityState {
  return { entity_id: 'e1', machine_name: 'order', machine_version: '1.0.0', state, context, version: 3 };
}

function ok(r: TransitionResult) {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r)}`);
  return r;
}

describe('lifecycle transition: taking a transition', () => {
  it('moves to the dest state and reports source, target and transition index', () => {
    const r = ok(transition(order, entity('created'), { trigger: 'pay', context: { amount: 10 } }));
    expect(r.source_state).to.equal('created');
    expect(r.target_state).to.equal('paid');
    expect(r.transitionIndex).to.equal(0);
  });

  it('takes an unguarded transition with no event context at all', () => {
    const r = ok(transition(order, entity('paid'), { trigger: 'cancel' }));
    expect(r.target_state).to.equal('cancelled');
    expect(r.transitionIndex).to.equal(2);
  });

  it('evaluates guards on the entity context when the event brings nothing', () => {
    expect(ok(transition(order, entity('created', { amount: 5 }), { trigger: 'pay' })).target_state).to.equal('paid');
  });

  it('evaluates guards on the event context merged over the entity context (event keys win)', () => {
    const r = transition(order, entity('created', { amount: 5 }), { trigger: 'pay', context: { amount: 0 } });
    expect(r.ok).to.equal(false);
    const r2 = ok(transition(order, entity('created', { amount: 0 }), { trigger: 'pay', context: { amount: 7 } }));
    expect(r2.context.amount).to.equal(7);
  });

  it('returns the merged context to store: entity keys kept, event keys added or overriding', () => {
    const r = ok(
      transition(order, entity('created', { amount: 1, customer: 'ann' }), {
        trigger: 'pay',
        context: { amount: 2, paid_at: '2024-01-01' },
      }),
    );
    expect(r.context).to.deep.equal({ amount: 2, customer: 'ann', paid_at: '2024-01-01' });
  });

  it('merges shallowly: a nested object in the event replaces the stored one', () => {
    const r = ok(
      transition(order, entity('paid', { addr: { city: 'Oslo', zip: '0150' } }), {
        trigger: 'cancel',
        context: { addr: { city: 'Bergen' } },
      }),
    );
    expect(r.context.addr).to.deep.equal({ city: 'Bergen' });
  });

  it('does not mutate the entity or the event', () => {
    const e = entity('created', { amount: 1 });
    const ev = { trigger: 'pay', context: { amount: 2 } };
    const before = JSON.stringify([e, ev]);
    const r = ok(transition(order, e, ev));
    expect(JSON.stringify([e, ev])).to.equal(before);
    expect(r.context).to.not.equal(e.context);
    expect(r.context).to.not.equal(ev.context);
  });

  it('allows a "*" transition from every non-terminal state', () => {
    for (const state of ['created', 'paid', 'shipped']) {
      const r = ok(transition(order, entity(state), { trigger: 'escalate', context: { ticket: 'T-9' } }));
      expect(r.target_state).to.equal('escalated');
      expect(r.source_state).to.equal(state);
      expect(r.transitionIndex).to.equal(5);
    }
  });

  it('takes the first of several matching transitions whose guards pass', () => {
    const small = ok(transition(order, entity('paid'), { trigger: 'refund', context: { refund: 50 } }));
    expect(small.transitionIndex).to.equal(3);
    const approved = ok(
      transition(order, entity('paid'), { trigger: 'refund', context: { refund: 5000, approved_by: 'bo' } }),
    );
    expect(approved.transitionIndex).to.equal(4);
    const both = ok(
      transition(order, entity('shipped'), { trigger: 'refund', context: { refund: 5, approved_by: 'bo' } }),
    );
    expect(both.transitionIndex).to.equal(3);
  });

  it('picks by definition order when several unguarded transitions match', () => {
    const r = ok(transition(order, entity('shipped'), { trigger: 'note' }));
    expect(r.transitionIndex).to.equal(6);
    expect(r.target_state).to.equal('created');
  });

  it('allows a self-loop', () => {
    const r = ok(transition(order, entity('created'), { trigger: 'note' }));
    expect(r.source_state).to.equal('created');
    expect(r.target_state).to.equal('created');
  });
});

describe('lifecycle transition: guard_rejected', () => {
  it("rejects when the only matching transition's guard fails, naming the check", () => {
    const r = transition(order, entity('created'), { trigger: 'pay', context: { amount: -3 } });
    expect(r).to.deep.equal({
      ok: false,
      code: 'guard_rejected',
      guard: { field: 'amount', op: 'gt', value: 0 },
      description: 'amount gt 0 (was -3)',
    });
  });

  it('reports a missing field as missing', () => {
    const r = transition(order, entity('paid'), { trigger: 'ship' });
    expect(r).to.include({ ok: false, code: 'guard_rejected', description: 'tracking exists (was missing)' });
  });

  it("reports the first matching transition's failing guard when all of them fail", () => {
    const r = transition(order, entity('paid'), { trigger: 'refund', context: { refund: 1500 } });
    expect(r).to.deep.equal({
      ok: false,
      code: 'guard_rejected',
      guard: { field: 'refund', op: 'lte', value: 1000 },
      description: 'refund lte 1000 (was 1500)',
    });
  });

  it('rejects a type mismatch instead of coercing ("10" is not > 0)', () => {
    expect(transition(order, entity('created'), { trigger: 'pay', context: { amount: '10' } })).to.include({
      code: 'guard_rejected',
    });
  });
});

describe('lifecycle transition: invalid_transition', () => {
  it('refuses an unknown trigger, listing the triggers available from the current state (sorted, unique)', () => {
    const r = transition(order, entity('paid'), { trigger: 'deliver' });
    expect(r).to.deep.equal({
      ok: false,
      code: 'invalid_transition',
      available: ['cancel', 'escalate', 'note', 'refund', 'ship'],
    });
  });

  it('refuses a known trigger that has no transition from the current state', () => {
    const r = transition(order, entity('created'), { trigger: 'ship', context: { tracking: 'x' } });
    expect(r).to.deep.equal({
      ok: false,
      code: 'invalid_transition',
      available: ['cancel', 'escalate', 'note', 'pay'],
    });
  });

  it('refuses every trigger from a terminal state, with nothing available', () => {
    for (const trigger of ['pay', 'cancel', 'escalate', 'note']) {
      expect(transition(order, entity('cancelled'), { trigger })).to.deep.equal({
        ok: false,
        code: 'invalid_transition',
        available: [],
      });
    }
  });

  it('refuses everything for an entity at a state the machine does not know', () => {
    expect(transition(order, entity('lost'), { trigger: 'note' })).to.deep.equal({
      ok: false,
      code: 'invalid_transition',
      available: [],
    });
  });

  it('matches triggers exactly (case and whitespace matter)', () => {
    for (const trigger of ['Pay', ' pay', 'pay ', '', '*']) {
      expect(transition(order, entity('created'), { trigger, context: { amount: 1 } })).to.include({
        code: 'invalid_transition',
      });
    }
  });
});

describe('lifecycle availableTriggers', () => {
  it('lists sorted unique triggers out of a state, including "*" transitions', () => {
    expect(availableTriggers(order, 'created')).to.deep.equal(['cancel', 'escalate', 'note', 'pay']);
    expect(availableTriggers(order, 'shipped')).to.deep.equal(['escalate', 'note', 'refund']);
  });

  it('lists nothing for terminal and unknown states', () => {
    expect(availableTriggers(order, 'refunded')).to.deep.equal([]);
    expect(availableTriggers(order, 'nowhere')).to.deep.equal([]);
  });
});

describe('lifecycle transition: the example machines', () => {
  it('walks a device from planned to retired through the happy path', () => {
    const m = fromFile('device_lifecycle.yaml');
    let e: EntityState = { ...entity(m.initial_state), machine_name: 'device_lifecycle' };
    const steps: [string, Record<string, unknown>, string][] = [
      ['stage', { site: 'osl01' }, 'staged'],
      ['activate', { serial: 'SN123', rack_units: 2 }, 'active'],
      ['fail', { failure_reason: 'psu' }, 'failed'],
      ['rma', { rma_number: 'RMA-000042' }, 'rma'],
      ['replace', {}, 'staged'],
      ['activate', {}, 'active'],
      ['decommission', { change_ticket: 'CHG1234' }, 'decommissioning'],
      ['retire', { wiped: true, disposal: 'recycled' }, 'retired'],
    ];
    for (const [trigger, context, expected] of steps) {
      const r = ok(transition(m, e, { trigger, context }));
      expect(r.target_state, trigger).to.equal(expected);
      e = { ...e, state: r.target_state, context: r.context, version: e.version + 1 };
    }
    expect(availableTriggers(m, e.state)).to.deep.equal([]);
  });

  it('refuses to activate a device without a serial or with more than 42 rack units', () => {
    const m = fromFile('device_lifecycle.yaml');
    const staged = { ...entity('staged'), machine_name: 'device_lifecycle' };
    expect(transition(m, staged, { trigger: 'activate', context: { rack_units: 2 } })).to.include({
      code: 'guard_rejected',
      description: 'serial exists (was missing)',
    });
    expect(transition(m, staged, { trigger: 'activate', context: { serial: 'S', rack_units: 48 } })).to.include({
      code: 'guard_rejected',
      description: 'rack_units lte 42 (was 48)',
    });
  });

  it('refunds small orders automatically and large ones only with an approver', () => {
    const m = fromFile('order_flow.yaml');
    const delivered = { ...entity('delivered'), machine_name: 'order_flow' };
    expect(ok(transition(m, delivered, { trigger: 'refund', context: { refund_amount: 20 } })).target_state).to.equal(
      'refunded',
    );
    expect(transition(m, delivered, { trigger: 'refund', context: { refund_amount: 2000 } })).to.include({
      code: 'guard_rejected',
      description: 'refund_amount lte 1000 (was 2000)',
    });
    const approved = ok(
      transition(m, delivered, { trigger: 'refund', context: { refund_amount: 2000, approved_by: 'finance.lead' } }),
    );
    expect(m.transitions[approved.transitionIndex].description).to.match(/approval/);
  });
});

describe('lifecycle transition: properties', () => {
  const key = fc.constantFrom('amount', 'tracking', 'refund', 'approved_by', 'ticket', '__proto__', 'constructor', 'x');
  const ctx = fc.dictionary(key, fc.oneof(fc.jsonValue(), fc.integer({ min: -5000, max: 5000 }), fc.constant('T-12')));
  const trigger = fc.oneof(fc.constantFrom('pay', 'ship', 'cancel', 'refund', 'escalate', 'note', 'nope'), fc.string());
  const state = fc.constantFrom('created', 'paid', 'shipped', 'cancelled', 'refunded', 'escalated', 'unknown');
  const names = order.states.map((s) => s.name);

  it('never throws on random states, triggers and contexts, and failures never change state', () => {
    fc.assert(
      fc.property(state, trigger, ctx, fc.option(ctx, { nil: undefined }), (st, trig, stored, incoming) => {
        const e = entity(st, stored);
        const snapshot = structuredClone(e);
        const r = transition(order, e, { trigger: trig, context: incoming });
        expect(e).to.deep.equal(snapshot); // the entity itself is never touched
        if (r.ok) {
          expect(r.source_state).to.equal(st);
          expect(names).to.include(r.target_state);
          expect(order.transitions[r.transitionIndex].trigger).to.equal(trig);
          expect(order.transitions[r.transitionIndex].source).to.include(st);
          expect(r.context).to.deep.equal({ ...stored, ...incoming });
        } else {
          expect(r).to.not.have.property('target_state');
          expect(r).to.not.have.property('context');
          expect(['invalid_transition', 'guard_rejected']).to.include(r.code);
          if (r.code === 'invalid_transition') expect(r.available).to.deep.equal(availableTriggers(order, st));
          else expect(r.description).to.be.a('string');
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on malformed event contexts from the wire', () => {
    const junk = fc.oneof(fc.anything(), fc.constant(null), fc.array(fc.jsonValue()), fc.string());
    fc.assert(
      fc.property(state, trigger, junk, junk, (st, trig, stored, incoming) => {
        const e = { ...entity(st), context: stored as Record<string, unknown> };
        const r = transition(order, e, { trigger: trig, context: incoming as Record<string, unknown> });
        expect(typeof r.ok).to.equal('boolean');
      }),
      { numRuns: 1000 },
    );
  });

  it('a "__proto__" key in an event context from JSON never reaches Object.prototype', () => {
    const incoming = JSON.parse('{"__proto__": {"polluted": true}, "amount": 5}');
    const r = ok(transition(order, entity('created'), { trigger: 'pay', context: incoming }));
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(Object.getPrototypeOf(r.context)).to.equal(Object.prototype);
  });
});
