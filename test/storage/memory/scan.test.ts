// The memory store's export scan (storage/memory/scan.ts): without writes it hands out the list's order a chunk
// at a time; rows written between chunks are seen as an offset page would see them (what is left is ordered
// again from the position reached): a row deleted before it was sent is left out, one created after the
// position reached is sent in its place, one created before it is not.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemoryStorage } from '../../../storage/memory/memory-storage.js';
import type { OrderKey } from '../../../engine/plan/page.js';
import type { Row } from '../../../storage/types.js';
import * as N from '../../../engine/plan/nodes.js';

const now = '2026-01-01T00:00:00.000Z';
const tag = (id: string, name: string): Row => ({
  id,
  created: now,
  last_updated: now,
  name,
  slug: `s-${id}`,
  color: '9e9e9e',
  description: `d${Number(id) % 7}`,
  version: 1,
});
const CHUNK = 100;
const ALL = N.and([]);

describe('memory store: export scan', function () {
  let dir: string, s: MemoryStorage;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-scan-'));
    s = new MemoryStorage(dir, { log: () => {}, idStyle: 'integer' });
    await s.open();
    const ids = await s.newIds('tag', 1000);
    await s.apply(ids.map((id) => ({ op: 'create' as const, resource: 'tag', row: tag(id, `n${1000 - Number(id)}`) })));
  });
  after(async () => {
    await s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const listIds = async (ordering: OrderKey[], offset = 0) =>
    (await s.find('tag', ALL, { limit: 1e9, offset, ordering })).rows.map((r) => r.id);

  for (const ordering of [[], [{ field: 'description', desc: true }], [{ field: 'name', desc: false }]])
    it(`gives the list's order a chunk at a time (${JSON.stringify(ordering)})`, async () => {
      const got: string[] = [];
      let chunks = 0;
      for await (const rows of s.scan('tag', ALL, ordering, { chunk: CHUNK })) {
        got.push(...rows.map((r) => r.id));
        chunks++;
      }
      expect(got).to.deep.equal(await listIds(ordering));
      expect(chunks).to.equal(10);
    });

  it('sees writes between chunks as an offset page would', async () => {
    const ordering = [{ field: 'description', desc: false }];
    const got: string[] = [];
    let expected: string[] = [];
    for await (const rows of s.scan('tag', ALL, ordering, { chunk: CHUNK })) {
      got.push(...rows.map((r) => r.id));
      if (got.length === 2 * CHUNK) {
        const sent = new Set(got);
        const unsent = (await listIds(ordering)).filter((id) => !sent.has(id));
        const [after, before] = await s.newIds('tag', 2);
        await s.apply([
          { op: 'delete', resource: 'tag', id: unsent[10] },
          { op: 'create', resource: 'tag', row: { ...tag(after, 'late'), description: 'd6' } },
          { op: 'create', resource: 'tag', row: { ...tag(before, 'early'), description: 'd0' } },
        ]);
        expected = [...got, ...(await listIds(ordering, got.length))];
        expect(expected).to.include(after).and.not.include(unsent[10]);
        expect(expected.slice(got.length)).to.not.include(before); // it sorts before the position reached
      }
    }
    expect(got).to.deep.equal(expected);
  });
});
