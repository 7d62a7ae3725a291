// Machine definitions are bounded (MAX_MACHINE_STATES states, ten transitions per state), so a
// definition's checks and its diagram stay cheap; a diagram is drawn once per stored version. The
// limits are in the definition's JSON Schema, which the OpenAPI document shows.
import { expect } from 'chai';
import { MAX_NAME_LENGTH, MAX_VERSION_LENGTH } from '../../engine/lifecycle/machine-schema.js';
import { startServer, type TestServer } from '../support/server.js';

const machine = (name: string, n: number, transitions = n - 1) => ({
  meta: { machine_name: name, version: '1.0.0' },
  states: Array.from({ length: n }, (_, i) => ({
    name: `s${i}`,
    type: i === 0 ? 'initial' : i === n - 1 ? 'terminal' : 'stable',
  })),
  transitions: Array.from({ length: transitions }, (_, i) => ({
    trigger: `t${i}`,
    source: `s${i % (n - 1)}`,
    dest: `s${(i % (n - 1)) + 1}`,
  })),
});

describe('machine size limits', function () {
  this.timeout(30000);
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ maxMachineStates: 40 });
  });
  after(async () => {
    await srv.close();
  });

  it('over MAX_MACHINE_STATES states, or ten transitions per state, is a 400 naming the limit', async () => {
    const states = await srv.req('POST', '/api/v1/machines', machine('too_many_states', 41));
    expect(states.status).to.equal(400);
    expect(states.body.code).to.equal('invalid_machine');
    expect(states.body.problems.join(' ')).to.contain('MAX_MACHINE_STATES').and.to.contain('at most 40');
    const moves = await srv.req('POST', '/api/v1/machines', machine('too_many_moves', 40, 401));
    expect(moves.status).to.equal(400);
    expect(moves.body.problems.join(' ')).to.contain('at most 400 transitions');
  });

  it(
    'the OpenAPI document shows the limits the server runs ' + 'with; a longer name is refused naming where it is',
    async () => {
      const schemas = (await srv.req('GET', '/openapi.json')).body.components.schemas;
      const definition = schemas.MachineDefinition.properties;
      expect(definition.states).to.include({ maxItems: 40, minItems: 1 });
      expect(definition.transitions).to.include({ maxItems: 400 });
      expect(schemas.MachineMeta.properties.machine_name).to.include({
        maxLength: MAX_NAME_LENGTH,
        pattern: '^[a-z0-9_]+$',
      });
      expect(schemas.MachineMeta.properties.version).to.include({ maxLength: MAX_VERSION_LENGTH, format: 'semver' });
      expect(schemas.MachineState.properties.name).to.include({ maxLength: MAX_NAME_LENGTH });
      expect(schemas.MachineTransition.properties.trigger).to.include({ maxLength: MAX_NAME_LENGTH });
      const long = machine('long_state', 3);
      long.states[1].name = long.transitions[0].dest = 's'.repeat(MAX_NAME_LENGTH + 1);
      const res = await srv.req('POST', '/api/v1/machines', long);
      expect(res.status).to.equal(400);
      expect(res.body.code).to.equal('invalid_machine');
      expect(res.body.problems).to.include(
        `states[1].name: must be at most ${MAX_NAME_LENGTH} characters, got ${MAX_NAME_LENGTH + 1}`,
      );
      expect(res.body.problems).to.include(
        `transitions[0].dest: must be at most ${MAX_NAME_LENGTH} characters, got ${MAX_NAME_LENGTH + 1}`,
      );
    },
  );

  it('at the limits: stored, and its diagram is drawn once and served the same', async () => {
    expect((await srv.req('POST', '/api/v1/machines', machine('at_limit', 40, 400))).status).to.equal(201);
    const path = '/api/v1/machines/at_limit/versions/1.0.0/diagram.svg';
    const first = await srv.req('GET', path);
    expect(first.status).to.equal(200);
    expect(String(first.body)).to.match(/^<svg/);
    expect((await srv.req('GET', path)).body).to.equal(first.body);
  });
});
