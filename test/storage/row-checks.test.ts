// Storage.apply's RowChecks (a write's object permission constraints) on every backend: a check
// tested before the batch's writes sees the rows they replace, one tested after sees the rows and
// their references as the batch leaves them, and a failed check writes nothing, not even a change
// record.
import { expect } from 'chai';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/backend-server.js';
import { constraintPlan } from '../../engine/permissions/constraint-plan.js';
import { resource } from '../../engine/schema/registry.js';
import type { Plan } from '../../engine/plan/nodes.js';
import { CheckFailed, type Row, type RowCheck, type Storage, type WriteOp } from '../../storage/types.js';

const deviceDef = resource('device');

for (const backend of BACKENDS)
  describe(`row checks of a write (${backend.name})`, function () {
    this.timeout(60_000);
    const h = serverOn(backend);
    const s: Record<string, Row> = {};
    let storage: Storage;
    let inEu: Plan;

    const made = async (path: string, body: unknown): Promise<Row> => {
      const r = await h.srv.req('POST', path, body);
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      return (await storage.get(resourceOf(path), String(r.body.id)))!;
    };
    const resourceOf = (path: string) => ({ regions: 'region', sites: 'site', devices: 'device' })[path.split('/')[3]]!;
    const update = (name: string, row: Row, change: Partial<Row>): WriteOp => ({
      op: 'update',
      resource: name,
      row: { ...row, ...change, version: ((row.version as number) ?? 0) + 1 },
      expectVersion: (row.version as number) ?? 0,
      before: row,
    });
    const check = (ids: string[], when: RowCheck['when']): RowCheck => ({ resource: 'device', ids, plan: inEu, when });
    /** The batch is refused by a CheckFailed and leaves the store as it was (rows and change log). */
    const refused = async (ops: WriteOp[], checks: RowCheck[]) => {
      const seq = await storage.changeSeq();
      const before = await Promise.all(ops.map((o) => storage.get(o.resource, o.op === 'delete' ? o.id : o.row.id)));
      let err: unknown = null;
      await storage.apply(ops, { checks }).catch((e: unknown) => (err = e));
      expect(err).to.be.instanceOf(CheckFailed);
      expect(await storage.changeSeq()).to.equal(seq);
      const after = await Promise.all(ops.map((o) => storage.get(o.resource, o.op === 'delete' ? o.id : o.row.id)));
      expect(after).to.deep.equal(before);
    };

    before(async function () {
      if (!h.srv) return;
      storage = h.srv.running.ctx.storage;
      const got = constraintPlan(
        deviceDef,
        { site__region__slug: 'eu' },
        { userId: null, customFields: [], ids: storage.ids },
      );
      if (!got.ok) throw new Error(JSON.stringify(got.errors));
      inEu = got.plan;
      s.eu = await made('/api/dcim/regions/', { name: 'EU', slug: 'eu' });
      s.us = await made('/api/dcim/regions/', { name: 'US', slug: 'us' });
      s.ams = await made('/api/dcim/sites/', { name: 'ams', slug: 'ams', region: s.eu.id });
      s.nyc = await made('/api/dcim/sites/', { name: 'nyc', slug: 'nyc', region: s.us.id });
      s.d1 = await made('/api/dcim/devices/', { name: 'd1', site: s.ams.id });
      s.d2 = await made('/api/dcim/devices/', { name: 'd2', site: s.nyc.id });
    });

    it('after: the row as written, through its references; a failure writes nothing', async () => {
      await refused([update('device', s.d1, { site: s.nyc.id })], [check([s.d1.id], 'after')]);
      // Two rows, one of them fine: all or none.
      await refused(
        [update('device', s.d1, { name: 'd1b' }), update('device', s.d2, { name: 'd2b' })],
        [check([s.d1.id, s.d2.id], 'after')],
      );
      await storage.apply([update('device', s.d1, { name: 'd1c' })], { checks: [check([s.d1.id], 'after')] });
      s.d1 = (await storage.get('device', s.d1.id))!;
      expect(s.d1.name).to.equal('d1c');
    });

    it('before: the row as stored before the batch (a move into the constraint does not pass)', async () => {
      await refused([update('device', s.d2, { site: s.ams.id })], [check([s.d2.id], 'before')]);
      await refused([{ op: 'delete', resource: 'device', id: s.d2.id }], [check([s.d2.id], 'before')]);
      // Absent rows fail.
      await refused(
        [update('device', s.d1, { name: 'x' })],
        [check([s.d1.id, '00000000-0000-7000-8000-000000000000'], 'before')],
      );
    });

    it('after: references as the same batch leaves them (a site moved out of the region in the batch)', async () => {
      const moveSite = update('site', s.ams, { region: s.us.id });
      await refused([moveSite, update('device', s.d1, { name: 'd1d' })], [check([s.d1.id], 'after')]);
      // The same write tested before the batch passes: the site is still in the region then.
      await storage.apply([moveSite, update('device', s.d1, { name: 'd1d' })], {
        checks: [check([s.d1.id], 'before')],
      });
      expect((await storage.get('site', s.ams.id))!.region).to.equal(s.us.id);
    });
  });
