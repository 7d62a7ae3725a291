// Machine definitions are bounded (MAX_MACHINE_STATES states, ten transitions per state), so a
// definition's checks and its diagram stay cheap; a diagram is drawn once per stored version.
import { expect } from 'chai';
import { startServer, type TestServer } from '../support/server.js';

const machine = (name: string, n: number, transitions = n - 1) => ({
  meta: { machine_name: name, version: '1.0.0' },
  states: Array.from({ length: n }, (_, i) => ({ name: `s${i}`, type: i === 0 ? 'initial' : i === n - 1 ? 'terminal' : 'stable' })),
  transitions: Array.from({ length: transitions }, (_, i) => ({ trigger: `t${i}`, source: `s${i % (n - 1)}`, dest: `s${(i % (n - 1)) + 1}` })),
});

describe('machine size limits', function () {
  this.timeout(30000);
  let srv: TestServer;
  before(async () => { srv = await startServer({ maxMachineStates: 40 }); });
  after(async () => { await srv.close(); });

  it('over MAX_MACHINE_STATES states, or ten transitions per state, is a 400 naming the limit', async () => {
    const states = await srv.req('POST', '/api/v1/machines', machine('too_many_states', 41));
    expect(states.status).to.equal(400);
    expect(states.body.code).to.equal('invalid_machine');
    expect(states.body.problems.join(' ')).to.contain('MAX_MACHINE_STATES').and.to.contain('at most 40');
    const moves = await srv.req('POST', '/api/v1/machines', machine('too_many_moves', 40, 401));
    expect(moves.status).to.equal(400);
    expect(moves.body.problems.join(' ')).to.contain('at most 400 transitions');
  });

  it('at the limits: stored, and its diagram is drawn once and served the same', async () => {
    expect((await srv.req('POST', '/api/v1/machines', machine('at_limit', 40, 400))).status).to.equal(201);
    const path = '/api/v1/machines/at_limit/versions/1.0.0/diagram.svg';
    const first = await srv.req('GET', path);
    expect(first.status).to.equal(200);
    expect(String(first.body)).to.match(/^<svg/);
    expect((await srv.req('GET', path)).body).to.equal(first.body);
  });
});
