// The change log over HTTP on every backend: one record per object a write touched, in the same
// batch as the write (cascades under the same request id), numbered gap-free; X-Change-Seq on
// every write's answer; the list filtered and ordered by the engine; read-only; its permission.
import { expect } from 'chai';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/backend-server.js';

const NOTE = {
  meta: { machine_name: 'notes', version: '1.0.0' },
  states: [
    { name: 'open', type: 'initial' },
    { name: 'done', type: 'terminal' },
  ],
  transitions: [
    { trigger: 'note', source: 'open', dest: 'open' },
    { trigger: 'close', source: 'open', dest: 'done' },
  ],
};

for (const backend of BACKENDS)
  describe(`change log API on ${backend.name}`, function () {
    this.timeout(60000);
    const h = serverOn(backend);
    type Change = Record<string, any>;
    const changes = async (query = ''): Promise<Change[]> => {
      const r = await h.srv.req('GET', `/api/extras/object-changes/?limit=1000${query}`);
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      return r.body.results;
    };
    const seqOf = (res: { headers: Headers }) => Number(res.headers.get('x-change-seq'));

    it('a create writes one record naming the request, the token and the object; X-Change-Seq is its seq', async () => {
      const res = await h.srv.req(
        'POST',
        '/api/dcim/sites/',
        { name: 'ams1', slug: 'ams1', facility: 'AMS' },
        undefined,
        { 'X-Request-Id': 'req-create-1' },
      );
      expect(res.status).to.equal(201);
      const [c] = await changes('&request_id=req-create-1');
      // a choice, as NetBox and Nautobot write it
      expect(c.action).to.deep.equal({ value: 'create', label: 'Created' });
      expect(c).to.include({
        changed_object_type: 'dcim.site',
        changed_object_id: res.body.id,
        object_repr: 'ams1',
        request_id: 'req-create-1',
        user_name: 'from config',
      });
      expect(c.seq).to.equal(seqOf(res));
      expect(c.object_data).to.include({ name: 'ams1', facility: 'AMS', id: res.body.id });
      expect(c.object_data).to.not.have.property('version');
      expect(c.prechange_data).to.equal(null);
      expect(Date.parse(c.time)).to.be.closeTo(Date.now(), 60_000);
    });

    it('an update records the object before and after', async () => {
      const site = (await h.srv.req('GET', '/api/dcim/sites/?slug=ams1')).body.results[0];
      const res = await h.srv.req('PATCH', `/api/dcim/sites/${site.id}/`, { facility: 'AMS-2' });
      expect(res.status).to.equal(200);
      const [c] = await changes(`&changed_object_id=${site.id}&action=update`);
      expect(c.seq).to.equal(seqOf(res));
      expect(c.prechange_data.facility).to.equal('AMS');
      expect(c.object_data.facility).to.equal('AMS-2');
    });

    it('a delete and what it cascades share one request id, dependents first, numbered one after another', async () => {
      const region = await h.srv.req('POST', '/api/dcim/regions/', { name: 'Europe', slug: 'eu' });
      const site = await h.srv.req('POST', '/api/dcim/sites/', { name: 'fra1', slug: 'fra1', region: region.body.id });
      const del = await h.srv.req('DELETE', `/api/dcim/regions/${region.body.id}/`, undefined, undefined, {
        'X-Request-Id': 'req-delete-1',
      });
      expect(del.status).to.equal(204);
      const got = await changes('&request_id=req-delete-1&ordering=seq');
      expect(got.map((c) => [c.action.value, c.changed_object_type, c.changed_object_id])).to.deep.equal([
        ['update', 'dcim.site', site.body.id],
        ['delete', 'dcim.region', region.body.id],
      ]);
      expect(got[0].prechange_data.region).to.equal(region.body.id);
      expect(got[0].object_data.region).to.equal(null);
      expect(got[1].object_data).to.include({ slug: 'eu' });
      expect(got[1].seq).to.equal(got[0].seq + 1);
      expect(seqOf(del)).to.equal(got[1].seq);
    });

    it(
      'a bulk create is one request id with consecutive numbers; a refused write logs nothing and answers the ' +
        'current seq',
      async () => {
        const bulk = await h.srv.req('POST', '/api/ipam/prefixes/', [
          { prefix: '10.0.0.0/8' },
          { prefix: '10.1.0.0/16' },
          { prefix: '10.2.0.0/16' },
        ]);
        expect(bulk.status).to.equal(201);
        const rid = bulk.headers.get('x-request-id')!;
        const got = await changes(`&request_id=${rid}&ordering=seq`);
        expect(got.map((c) => c.object_repr)).to.deep.equal(['10.0.0.0/8', '10.1.0.0/16', '10.2.0.0/16']);
        expect(got.map((c) => c.seq)).to.deep.equal([got[0].seq, got[0].seq + 1, got[0].seq + 2]);
        const before = (await changes()).length;
        const bad = await h.srv.req('POST', '/api/ipam/prefixes/', [{ prefix: '10.3.0.0/16' }, { prefix: 'nonsense' }]);
        expect(bad.status).to.equal(400);
        expect((await changes()).length).to.equal(before);
        expect(seqOf(bad)).to.equal(got[2].seq);
      },
    );

    it('lists newest first; seq__gt with ordering=seq reads what followed, with no gap', async () => {
      const all = await changes();
      const seqs = all.map((c) => c.seq);
      expect(seqs).to.deep.equal([...seqs].sort((a, b) => b - a));
      expect(seqs).to.deep.equal(Array.from({ length: seqs.length }, (_, i) => seqs[0] - i)); // gap-free
      const after = await changes(`&seq__gt=${seqs[3]}&ordering=seq`);
      expect(after.map((c) => c.seq)).to.deep.equal([...seqs.slice(0, 3)].reverse());
      const sites = await changes('&changed_object_type=dcim.site');
      expect(sites.length).to.be.greaterThan(0);
      expect(sites.every((c) => c.changed_object_type === 'dcim.site')).to.equal(true);
      const since = await changes(`&time__gte=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`);
      expect(since.length).to.equal(all.length);
      // The configured token's writes, and the system's (the bundled machines a start installs).
      const mine = await changes(`&user_name=${encodeURIComponent('from config')}`);
      expect(mine.length).to.be.greaterThan(0);
      expect(mine.length + (await changes('&user_name=system')).length).to.equal(all.length);
    });

    it('one record by id; the same list at /api/core/object-changes/; read-only', async () => {
      const [c] = await changes();
      const one = await h.srv.req('GET', `/api/extras/object-changes/${c.id}/`);
      expect(one.status).to.equal(200);
      expect(one.body.seq).to.equal(c.seq);
      const core = await h.srv.req('GET', '/api/core/object-changes/?limit=1000');
      expect(core.body.results.map((x: Change) => x.id)).to.deep.equal((await changes()).map((x) => x.id));
      expect((await h.srv.req('POST', '/api/extras/object-changes/', { action: 'create' })).status).to.equal(405);
      expect((await h.srv.req('DELETE', `/api/extras/object-changes/${c.id}/`)).status).to.equal(405);
    });

    it('needs extras.view_objectchange; a token record never carries the key hash', async () => {
      const made = await h.srv.req('POST', '/api/users/tokens/', {
        permissions: ['dcim.view_site'],
        description: 'reader',
      });
      expect(made.status, JSON.stringify(made.body)).to.equal(201);
      expect((await h.srv.req('GET', '/api/extras/object-changes/', undefined, made.body.key)).status).to.equal(403);
      const [c] = await changes(`&changed_object_id=${made.body.id}`);
      expect(c).to.include({ changed_object_type: 'users.token' });
      expect(JSON.stringify(c)).to.not.match(/key_hash/);
      const viewer = await h.srv.req('POST', '/api/users/tokens/', {
        permissions: ['extras.view_objectchange'],
        description: 'auditor',
      });
      expect(
        (await h.srv.req('GET', '/api/extras/object-changes/?limit=1', undefined, viewer.body.key)).status,
      ).to.equal(200);
      // Writes through that token are its: user_name is the token's description.
      const site = await h.srv.req('POST', '/api/users/tokens/', {
        permissions: ['dcim.add_site'],
        description: 'writer',
      });
      const w = await h.srv.req('POST', '/api/dcim/sites/', { name: 'w1', slug: 'w1' }, site.body.key);
      expect(w.status).to.equal(201);
      expect((await changes(`&changed_object_id=${w.body.id}`))[0].user_name).to.equal('writer');
    });

    it('an entity event is one record with the transition and the context change, not the whole context', async () => {
      expect((await h.srv.req('POST', '/api/v1/machines', NOTE)).status).to.equal(201);
      const big = 'x'.repeat(1000);
      expect(
        (await h.srv.req('POST', '/api/v1/entities/n1/create', { machine_name: 'notes', context: { big, n: 0 } }))
          .status,
      ).to.equal(201);
      const ev = await h.srv.req('POST', '/api/v1/entities/n1/events', { trigger: 'close', context: { n: 1 } });
      expect(ev.status, JSON.stringify(ev.body)).to.equal(200);
      const [c] = await changes('&changed_object_type=lifecycle.entity&action=update');
      expect(c.seq).to.equal(seqOf(ev));
      expect(c.object_data).to.include({ state: 'done', entity_id: 'n1' });
      expect(c.object_data.context_patch).to.deep.equal({ n: 1 });
      expect(c.object_data).to.not.have.property('context');
      expect(c.prechange_data).to.deep.equal({ state: 'open', version: 1 });
      expect(
        (await changes('&changed_object_type=lifecycle.machine')).filter((m) => m.object_repr === 'notes@1.0.0').length,
      ).to.equal(1);
      expect((await changes('&changed_object_type=lifecycle.history')).length).to.equal(0);
    });
  });
