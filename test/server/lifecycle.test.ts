// The lifecycle API over real sockets: machines, create, events, guards, history, CAS, idempotency.
import { expect } from 'chai';
import { serverOn } from '../support/server-on.js';
import { BACKENDS } from '../e2e/conformance/backends.js';

const PAY = { trigger: 'pay', context: { amount: 10, currency: 'EUR', payment_ref: 'x1' } };

for (const backend of BACKENDS)
  describe(`lifecycle API on ${backend.name}`, function () {
    this.timeout(60000);
    const srv = serverOn(backend);

    it('lists the machines shipped in machines/', async () => {
      const res = await srv.req('GET', '/api/v1/machines');
      expect(res.status).to.equal(200);
      expect(res.body.results.map((m: { machine_name: string }) => m.machine_name)).to.include.members([
        'order_flow',
        'device_lifecycle',
      ]);
    });

    it('pages the machine list with limit and offset', async () => {
      const all = (await srv.req('GET', '/api/v1/machines?limit=1000')).body;
      expect(all.count).to.be.greaterThan(1);
      const first = await srv.req('GET', '/api/v1/machines?limit=1');
      expect(first.body.count).to.equal(all.count);
      expect(first.body.results).to.deep.equal(all.results.slice(0, 1));
      expect(first.body.next).to.match(/limit=1&offset=1$/);
      const second = await srv.req('GET', '/api/v1/machines?limit=1&offset=1');
      expect(second.body.results).to.deep.equal(all.results.slice(1, 2));
      expect(second.body.previous).to.be.a('string');
    });

    it('takes a definition as YAML too, checked like JSON', async () => {
      const yaml =
        'meta:\n  machine_name: from_yaml\n  version: 1.0.0\nstates:\n  - {name: a, type: initial}\n  - {name: ' +
        'b, type: terminal}\ntransitions:\n  - {trigger: go, source: a, dest: b}\n';
      const ok = await srv.req('POST', '/api/v1/machines', yaml, undefined, { 'Content-Type': 'application/yaml' });
      expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
      expect(ok.body.meta).to.deep.equal({ machine_name: 'from_yaml', version: '1.0.0' });
      const bad = await srv.req('POST', '/api/v1/machines', yaml.replace('dest: b', 'dest: nowhere'), undefined, {
        'Content-Type': 'text/yaml',
      });
      expect(bad.status).to.equal(400);
      expect(bad.body.problems.join('\n')).to.match(/nowhere/);
      const broken = await srv.req('POST', '/api/v1/machines', 'meta: [unclosed', undefined, {
        'Content-Type': 'application/yaml',
      });
      expect(broken.body).to.include({ code: 'invalid_yaml' });
    });

    it('a definition with faults of its shape and across its fields has every problem listed', async () => {
      const res = await srv.req('POST', '/api/v1/machines', {
        meta: { machine_name: 'probs', version: 'x' },
        states: [{ name: 'a', type: 'initial', colour: 'red' }],
        transitions: [{ trigger: 'go', source: 'a', dest: 'nowhere', guard: [] }],
      });
      expect(res.status).to.equal(400);
      expect(res.body.code).to.equal('invalid_machine');
      const problems = (res.body.problems as string[]).join('\n');
      for (const what of [/version/, /colour/, /nowhere/, /guard\b/]) expect(problems).to.match(what);
    });

    it('creates an entity at the initial state with a creation history row', async () => {
      const res = await srv.req('POST', '/api/v1/entities/order-1/create', {
        machine_name: 'order_flow',
        context: { customer: 'acme' },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.include({ entity_id: 'order-1', machine_name: 'order_flow', state: 'created', version: 1 });
      expect(res.body).to.have.keys([
        'entity_id',
        'machine_name',
        'machine_version',
        'state',
        'context',
        'version',
        'created_at',
        'updated_at',
      ]);
      const hist = await srv.req('GET', '/api/v1/entities/order-1/history');
      expect(hist.body.results).to.have.length(1);
      expect(hist.body.results[0]).to.include({
        trigger: '__entity_created__',
        source_state: null,
        target_state: 'created',
      });
      expect(
        (await srv.req('POST', '/api/v1/entities/order-1/create', { machine_name: 'order_flow' })).status,
      ).to.equal(409);
    });

    it('refuses unknown machines (404), bad ids and bodies (400)', async () => {
      expect((await srv.req('POST', '/api/v1/entities/x/create', { machine_name: 'nope' })).status).to.equal(404);
      expect(
        (await srv.req('POST', '/api/v1/entities/x/create', { machine_name: 'order_flow', machine_version: '9.9.9' }))
          .status,
      ).to.equal(404);
      expect(
        (await srv.req('POST', '/api/v1/entities/bad%20id/create', { machine_name: 'order_flow' })).status,
      ).to.equal(400);
      expect((await srv.req('POST', '/api/v1/entities/y/create', { machine_name: 5 })).status).to.equal(400);
    });

    it('moves an entity through a guarded transition and merges the context', async () => {
      const res = await srv.req('POST', '/api/v1/entities/order-1/events', PAY);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ source_state: 'created', target_state: 'paid', trigger: 'pay' });
      expect(res.body.entity.context).to.deep.include({ customer: 'acme', amount: 10 });
      expect(res.body.entity.version).to.equal(2);
      const hist = await srv.req('GET', '/api/v1/entities/order-1/history');
      expect(hist.body.results.map((h: { trigger: string }) => h.trigger)).to.deep.equal(['__entity_created__', 'pay']);
    });

    it('answers 409 with a code for no transition, a rejected guard and a state mismatch', async () => {
      const none = await srv.req('POST', '/api/v1/entities/order-1/events', { trigger: 'pay' });
      expect(none.status).to.equal(409);
      expect(none.body.code).to.equal('invalid_transition');
      expect(none.body.available_triggers).to.include('ship');
      const guard = await srv.req('POST', '/api/v1/entities/order-1/events', {
        trigger: 'ship',
        context: { carrier: 'pigeon', tracking_number: 't' },
      });
      expect(guard.status).to.equal(409);
      expect(guard.body.code).to.equal('guard_rejected');
      const mismatch = await srv.req('POST', '/api/v1/entities/order-1/events', {
        trigger: 'cancel',
        expected_state: 'created',
      });
      expect(mismatch.body.code).to.equal('state_mismatch');
      expect((await srv.req('GET', '/api/v1/entities/order-1')).body.state).to.equal('paid');
      expect((await srv.req('POST', '/api/v1/entities/nobody/events', PAY)).status).to.equal(404);
    });

    it('of racing events with the same expected_state exactly one wins, one history row each', async () => {
      await srv.req('POST', '/api/v1/entities/race-1/create', { machine_name: 'order_flow' });
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          srv.req('POST', '/api/v1/entities/race-1/events', { ...PAY, expected_state: 'created' }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).to.have.length(1);
      expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'state_mismatch')).to.equal(true);
      const hist = await srv.req('GET', '/api/v1/entities/race-1/history');
      expect(hist.body.count).to.equal(2);
    });

    it('concurrent events without expected_state are serialized: each accepted one has its row', async () => {
      await srv.req('POST', '/api/v1/entities/dev-1/create', { machine_name: 'device_lifecycle' });
      const results = await Promise.all(
        Array.from({ length: 10 }, () => srv.req('POST', '/api/v1/entities/dev-1/events', { trigger: 'mark_lost' })),
      );
      const ok = results.filter((r) => r.status === 200).length;
      const ent = await srv.req('GET', '/api/v1/entities/dev-1');
      const hist = await srv.req('GET', '/api/v1/entities/dev-1/history?limit=100');
      expect(hist.body.count).to.equal(1 + ok);
      expect(ent.body.version).to.equal(1 + ok);
    });

    it('Idempotency-Key returns the first response and writes nothing; another body is a 422', async () => {
      await srv.req('POST', '/api/v1/entities/idem-1/create', { machine_name: 'order_flow' });
      const h = { 'Idempotency-Key': 'k-1' };
      const a = await srv.req('POST', '/api/v1/entities/idem-1/events', PAY, undefined, h);
      const b = await srv.req('POST', '/api/v1/entities/idem-1/events', PAY, undefined, h);
      expect(a.status).to.equal(200);
      expect(b.status).to.equal(200);
      expect(b.body).to.deep.equal(a.body);
      expect((await srv.req('GET', '/api/v1/entities/idem-1/history')).body.count).to.equal(2);
      const c = await srv.req(
        'POST',
        '/api/v1/entities/idem-1/events',
        { ...PAY, context: { amount: 11 } },
        undefined,
        h,
      );
      expect(c.status).to.equal(422);
    });

    it('Idempotency-Keys of different entities never meet, whatever characters the two hold', async () => {
      for (const id of ['amb:x', 'amb'])
        expect(
          (await srv.req('POST', `/api/v1/entities/${id}/create`, { machine_name: 'order_flow' })).status,
        ).to.equal(201);
      const a = await srv.req('POST', '/api/v1/entities/amb:x/events', PAY, undefined, { 'Idempotency-Key': 'k' });
      const b = await srv.req('POST', '/api/v1/entities/amb/events', PAY, undefined, { 'Idempotency-Key': 'x:k' });
      expect([a.status, b.status]).to.deep.equal([200, 200]);
      expect(b.body.entity.entity_id).to.equal('amb');
      expect((await srv.req('GET', '/api/v1/entities/amb')).body.state).to.equal('paid');
    });

    it('retries of one create sent at once with one Idempotency-Key all get the first answer', async () => {
      const h = { 'Idempotency-Key': 'create-once' };
      const outs = await Promise.all(
        Array.from({ length: 12 }, () =>
          srv.req('POST', '/api/v1/entities/idem-many/create', { machine_name: 'order_flow' }, undefined, h),
        ),
      );
      expect(outs.map((o) => o.status)).to.deep.equal(new Array(12).fill(201));
      for (const o of outs) expect(o.body).to.deep.equal(outs[0].body);
      expect((await srv.req('GET', '/api/v1/entities/idem-many/history')).body.count).to.equal(1);
      // Another key for an entity that exists is still a conflict.
      expect(
        (
          await srv.req('POST', '/api/v1/entities/idem-many/create', { machine_name: 'order_flow' }, undefined, {
            'Idempotency-Key': 'other',
          })
        ).status,
      ).to.equal(409);
    });

    it('lists entities with the filter engine (state, machine_name, created__gte, state__n)', async () => {
      const paid = await srv.req('GET', '/api/v1/entities/?state=paid&machine_name=order_flow');
      expect(paid.body.results.map((e: { entity_id: string }) => e.entity_id).sort()).to.deep.equal([
        'amb',
        'amb:x',
        'idem-1',
        'order-1',
        'race-1',
      ]);
      const notPaid = await srv.req('GET', '/api/v1/entities/?state__n=paid&created__gte=2000-01-01');
      expect(notPaid.body.results.every((e: { state: string }) => e.state !== 'paid')).to.equal(true);
      expect((await srv.req('GET', '/api/v1/entities/?bogus=1')).status).to.equal(400);
    });

    it(
      'accepts a new machine version by POST, refuses a ' + 'duplicate (409) and a bad one with every problem (400)',
      async () => {
        const def = {
          meta: { machine_name: 'ticket', version: '1.0.0' },
          states: [
            { name: 'open', type: 'initial' },
            { name: 'done', type: 'terminal' },
          ],
          transitions: [{ trigger: 'close', source: 'open', dest: 'done' }],
        };
        expect((await srv.req('POST', '/api/v1/machines', def)).status).to.equal(201);
        expect(
          (
            await srv.req('POST', '/api/v1/machines', {
              ...def,
              states: [...def.states, { name: 'x', type: 'stable' }],
            })
          ).status,
        ).to.equal(409);
        const v2 = await srv.req('POST', '/api/v1/machines', {
          ...def,
          meta: { machine_name: 'ticket', version: '1.10.0' },
        });
        expect(v2.status).to.equal(201);
        expect((await srv.req('GET', '/api/v1/machines/ticket')).body.latest).to.equal('1.10.0');
        const bad = await srv.req('POST', '/api/v1/machines', {
          meta: { machine_name: 'Bad!', version: 'x' },
          states: [],
          transitions: [],
        });
        expect(bad.status).to.equal(400);
        expect(bad.body.problems.length).to.be.greaterThan(2);
        const created = await srv.req('POST', '/api/v1/entities/t-1/create', {
          machine_name: 'ticket',
          machine_version: '1.0.0',
        });
        expect(created.body.machine_version).to.equal('1.0.0');
      },
    );
  });
