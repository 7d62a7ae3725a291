// Server-assigned ids are version-7 UUIDs, increasing in the order a process made them (objects and
// their change records): on InnoDB, whose rows are clustered by primary key, random ids made a bulk
// create read and write ~3 pages per row once the tables outgrew the buffer pool (bench:bulk at
// 200,000 prefixes on MariaDB: 152 ms database CPU per 1,000 prefixes, 40 ms with ordered ids).
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import { BACKENDS } from '../../e2e/conformance/backends.js';
import { serverOn } from '../../support/backend-server.js';
import { timeOrderedId } from '../../../storage/time-ordered-id.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedId', () => {
  it('version 7, increasing past 4,096 ids in one millisecond, its time the clock', () => {
    const before = Date.now();
    const ids = Array.from({ length: 20000 }, timeOrderedId);
    for (const id of ids) expect(id).to.match(V7);
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1], `${ids[i - 1]} then ${ids[i]}`).to.equal(true);
    const ms = parseInt(ids[0].slice(0, 8) + ids[0].slice(9, 13), 16);
    expect(ms).to.be.within(before, Date.now() + 1);
  });
});

for (const backend of BACKENDS) {
  describe(`ids in creation order on ${backend.name}`, function () {
    this.timeout(60000);
    const h = serverOn(backend);

    it('a bulk create and the one after it: objects and change records with increasing version-7 ids', async () => {
      const made: string[] = [];
      for (const part of [0, 1]) {
        const r = await h.srv.req(
          'POST',
          '/api/ipam/prefixes/',
          Array.from({ length: 30 }, (_, i) => ({ prefix: `10.${part}.${i}.0/24`, status: 'active' })),
        );
        expect(r.status).to.equal(201);
        made.push(...(r.body as { id: string }[]).map((p) => p.id));
      }
      for (const id of made) expect(id).to.match(V7);
      expect([...made].sort()).to.deep.equal(made);
      const changes = (await h.srv.req('GET', '/api/extras/object-changes/?limit=0&ordering=time')).body.results as {
        id: string;
        changed_object_id: string;
      }[];
      const ofMade = changes.filter((c) => made.includes(c.changed_object_id));
      expect(ofMade.map((c) => c.changed_object_id)).to.deep.equal(made);
      for (const c of ofMade) expect(c.id).to.match(V7);
      expect(ofMade.map((c) => c.id)).to.deep.equal([...ofMade.map((c) => c.id)].sort());
    });
  });
}
