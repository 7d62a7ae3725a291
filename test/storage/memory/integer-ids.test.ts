// An integer memory store (ID_STYLE=integer, NetBox's ids): each resource counts its own ids, a
// count that never goes back (restarts, deletes, compaction, ids given in a create); the style is
// kept in the store's directory, and a start asking for the other style is refused naming both;
// ids order as numbers on every path that orders or bounds them.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemoryStorage } from '../../../storage/memory/memory-storage.js';
import { idStyleFile } from '../../../storage/memory/store-id-style.js';
import { StorageConfigError, type Page, type Row, type StorageOptions } from '../../../storage/types.js';
import { INTEGER_IDS } from '../../../engine/schema/id-style.js';
import * as N from '../../../engine/plan/nodes.js';

const now = '2026-01-01T00:00:00.000Z';
const tag = (id: string, name = `t${id}`): Row => ({
  id,
  created: now,
  last_updated: now,
  name,
  slug: name,
  color: '9e9e9e',
  description: '',
  version: 1,
});
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-intids-'));
const quiet: StorageOptions = { log: () => {} };

/** Opens the store at `dir`, runs `fn`, closes it. */
async function withStore<T>(dir: string, opts: StorageOptions, fn: (s: MemoryStorage) => Promise<T>): Promise<T> {
  const s = new MemoryStorage(dir, { ...quiet, ...opts });
  await s.open();
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

/** Creates tags with the store's next ids; their ids. */
async function createTags(s: MemoryStorage, n: number, prefix = 'a'): Promise<string[]> {
  const ids = await s.newIds('tag', n);
  await s.apply(ids.map((id) => ({ op: 'create' as const, resource: 'tag', row: tag(id, `${prefix}${id}`) })));
  return ids;
}

const byId = (limit = 100, offset = 0): Page => ({ limit, offset, ordering: [{ field: 'id', desc: false }] });
const idsOf = (rows: readonly Row[]) => rows.map((r) => r.id);

describe('memory store: integer ids', () => {
  let dir: string;
  beforeEach(() => {
    dir = tmp();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('counts each resource apart from 1, as canonical decimal text; uuidIds resources keep UUIDs', async () => {
    await withStore(dir, { idStyle: 'integer' }, async (s) => {
      expect(s.ids.name).to.equal('integer');
      expect(await s.newIds('tag', 3)).to.deep.equal(['1', '2', '3']);
      expect(await s.newIds('tag', 2)).to.deep.equal(['4', '5']);
      expect(await s.newIds('site', 2)).to.deep.equal(['1', '2']);
      const [change] = await s.newIds('object_change', 1);
      expect(change).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    });
  });

  it('a volatile store takes ID_STYLE (default uuid)', async () => {
    const int = new MemoryStorage(null, { idStyle: 'integer' });
    await int.open();
    expect(int.ids.name).to.equal('integer');
    expect(await int.newIds('tag', 2)).to.deep.equal(['1', '2']);
    const plain = new MemoryStorage(null);
    await plain.open();
    expect(plain.ids.name).to.equal('uuid');
    expect((await plain.newIds('tag', 1))[0]).to.have.length(36);
  });

  it('keeps its ids across a restart, and goes on counting after the highest', async () => {
    await withStore(dir, { idStyle: 'integer' }, async (s) => {
      expect(await createTags(s, 3)).to.deep.equal(['1', '2', '3']);
    });
    await withStore(dir, {}, async (s) => {
      expect(s.ids.name).to.equal('integer');
      expect((await s.get('tag', '2'))?.name).to.equal('a2');
      expect(await createTags(s, 2, 'b')).to.deep.equal(['4', '5']);
    });
    await withStore(dir, {}, async (s) => {
      expect(idsOf((await s.find('tag', N.TRUE, byId())).rows)).to.deep.equal(['1', '2', '3', '4', '5']);
    });
  });

  it('never hands out a deleted highest id again: not after a restart, not after compaction', async () => {
    await withStore(dir, { idStyle: 'integer' }, async (s) => {
      await createTags(s, 5);
      await s.apply([
        { op: 'delete', resource: 'tag', id: '5' },
        { op: 'delete', resource: 'tag', id: '4' },
      ]);
      expect(await s.newIds('tag', 1)).to.deep.equal(['6']);
    });
    // This start replays the journal (the creates of 4 and 5 with it) and compacts it into a snapshot.
    await withStore(dir, {}, async (s) => {
      expect(s.table('tag').size).to.equal(3);
      expect(await s.newIds('tag', 1)).to.deep.equal(['6']);
    });
    expect(fs.existsSync(path.join(dir, 'snapshot.bin'))).to.equal(true);
    // This one reads the snapshot alone: rows 1-3 and the counter it carries.
    await withStore(dir, {}, async (s) => {
      expect(idsOf([...s.table('tag').all()]).sort()).to.deep.equal(['1', '2', '3']);
      expect(await createTags(s, 1, 'c')).to.deep.equal(['6']);
      await s.apply([{ op: 'delete', resource: 'tag', id: '6' }]);
    });
    await withStore(dir, {}, async () => {}); // compacts again: 6 is gone from the tables
    await withStore(dir, {}, async (s) => {
      expect(await s.newIds('tag', 2)).to.deep.equal(['7', '8']);
    });
  });

  it('a compaction left until the server listens (deferStartWork) keeps the counters as well', async () => {
    await withStore(dir, { idStyle: 'integer' }, async (s) => {
      await createTags(s, 3);
      await s.apply([{ op: 'delete', resource: 'tag', id: '3' }]);
    });
    const s = new MemoryStorage(dir, quiet);
    s.deferStartWork();
    await s.open();
    await s.afterListening();
    await s.close();
    expect(fs.statSync(path.join(dir, 'snapshot.bin')).size).to.be.greaterThan(0);
    await withStore(dir, {}, async (again) => {
      expect(await again.newIds('tag', 1)).to.deep.equal(['4']);
    });
  });

  it('an id given in a create moves the counter (an import keeps its source ids)', async () => {
    await withStore(dir, { idStyle: 'integer' }, async (s) => {
      await s.apply([{ op: 'create', resource: 'tag', row: tag('500') }]);
      expect(await s.newIds('tag', 1)).to.deep.equal(['501']);
      await s.apply([{ op: 'create', resource: 'tag', row: tag('40') }]); // below the counter: no move
      expect(await s.newIds('tag', 1)).to.deep.equal(['502']);
      await s.apply([{ op: 'create', resource: 'tag', row: tag('900') }]);
      await s.apply([{ op: 'delete', resource: 'tag', id: '900' }]);
    });
    await withStore(dir, {}, async (s) => {
      expect(await s.newIds('tag', 1)).to.deep.equal(['901']);
    });
  });

  it('a create that failed leaves a gap a restart may close; a committed id never comes again', async () => {
    await withStore(dir, { idStyle: 'integer' }, async (s) => {
      await createTags(s, 2);
      // A clash on the slug: the batch is refused whole.
      const [id] = await s.newIds('tag', 1);
      expect(id).to.equal('3');
      let refused = false;
      try {
        await s.apply([{ op: 'create', resource: 'tag', row: tag(id, 'a1') }]);
      } catch {
        refused = true;
      }
      expect(refused).to.equal(true);
      expect(await s.newIds('tag', 1)).to.deep.equal(['4']); // in this process, never twice
    });
    await withStore(dir, {}, async (s) => {
      expect(await s.newIds('tag', 1)).to.deep.equal(['3']); // the gap is closed again: 3 never committed
    });
  });

  it('advanceIdCounters moves each counter past the rows a table holds', async () => {
    const s = new MemoryStorage(null, { idStyle: 'integer' });
    await s.open();
    s.table('tag').insert(tag('70')); // rows put in place without a create (as a load does)
    expect(await s.newIds('tag', 1)).to.deep.equal(['1']);
    await s.advanceIdCounters();
    expect(await s.newIds('tag', 1)).to.deep.equal(['71']);
  });

  it('keeps its style in the store: a start without ID_STYLE or with the same one takes it', async () => {
    await withStore(dir, { idStyle: 'integer' }, async () => {});
    expect(fs.readFileSync(idStyleFile(dir), 'utf8').trim()).to.equal('integer');
    await withStore(dir, {}, async (s) => expect(s.ids.name).to.equal('integer'));
    await withStore(dir, { idStyle: 'integer' }, async (s) => expect(s.ids.name).to.equal('integer'));
    const other = tmp();
    try {
      await withStore(other, {}, async () => {});
      await withStore(other, {}, async (s) => expect(s.ids.name).to.equal('uuid'));
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it('refuses an ID_STYLE that differs from the store, in one line naming both, and lets the lock go', async () => {
    await withStore(dir, { idStyle: 'integer' }, async (s) => {
      await createTags(s, 1);
    });
    const s = new MemoryStorage(dir, { ...quiet, idStyle: 'uuid' });
    let err: unknown = null;
    try {
      await s.open();
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(StorageConfigError);
    const message = (err as Error).message;
    expect(message).to.equal(
      `the store at ${dir} has integer ids; ID_STYLE=uuid cannot change that (ids are chosen when a store is created)`,
    );
    expect(message).not.to.include('\n');
    // Nothing changed and the directory is free for the next start.
    await withStore(dir, {}, async (again) => expect((await again.get('tag', '1'))?.name).to.equal('a1'));
  });

  it('reads a store written before id styles (no style recorded) as a UUID store', async () => {
    const uuidTag = tag('00000000-0000-4000-8000-000000000001');
    await withStore(dir, {}, async (s) => {
      await s.apply([{ op: 'create', resource: 'tag', row: uuidTag }]);
    });
    fs.rmSync(idStyleFile(dir));
    await withStore(dir, {}, async (s) => {
      expect(s.ids.name).to.equal('uuid');
      expect(await s.get('tag', uuidTag.id)).to.deep.include({ name: uuidTag.name });
    });
    expect(fs.existsSync(idStyleFile(dir))).to.equal(false); // only a store's creation writes it
    let err: unknown = null;
    try {
      await withStore(dir, { idStyle: 'integer' }, async () => {});
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(StorageConfigError);
    expect((err as Error).message).to.match(/has uuid ids; ID_STYLE=integer cannot change that/);
  });

  it('orders ids as numbers: ordering=id, the id walk of cursor pages and id__gt bounds', async () => {
    await withStore(dir, { idStyle: 'integer' }, async (s) => {
      // Out of order and of every length, some from the counter, some given.
      for (const id of ['10', '9', '100', '2', '11', '1000', '99'])
        await s.apply([{ op: 'create', resource: 'tag', row: tag(id) }]);
      await createTags(s, 2, 'n'); // 1001, 1002
      const all = ['2', '9', '10', '11', '99', '100', '1000', '1001', '1002'];
      expect(idsOf((await s.find('tag', N.TRUE, byId())).rows)).to.deep.equal(all);
      expect(
        idsOf((await s.find('tag', N.TRUE, { ...byId(), ordering: [{ field: 'id', desc: true }] })).rows),
      ).to.deep.equal([...all].reverse());
      // A cursor page: no count, the table walked in id order from the bound.
      const after9 = await s.find('tag', N.cmp('id', 'string', 'gt', false, ['9']), byId(3), { noCount: true });
      expect(idsOf(after9.rows)).to.deep.equal(['10', '11', '99']);
      const from100 = await s.find('tag', N.cmp('id', 'string', 'gte', false, ['100']), byId(), { noCount: true });
      expect(idsOf(from100.rows)).to.deep.equal(['100', '1000', '1001', '1002']);
      // The same bounds as filters (a count wanted), and an upper bound.
      const below = await s.find('tag', N.cmp('id', 'string', 'lt', false, ['11']), byId());
      expect(below.count).to.equal(3);
      expect(idsOf(below.rows)).to.deep.equal(['2', '9', '10']);
      // The default tie-break on names that tie: ids as numbers.
      const byColor = await s.find('tag', N.TRUE, { limit: 3, offset: 0, ordering: [{ field: 'color', desc: false }] });
      expect(idsOf(byColor.rows)).to.deep.equal(['2', '9', '10']);
    });
  });

  it('reads a plain reference as a slug, an id only where ids are asked for (NetBox: site=17 is a slug)', async () => {
    const s = new MemoryStorage(null, { idStyle: 'integer' });
    await s.open();
    const site = (id: string, slug: string) => ({ id, name: `site ${slug}`, slug, created: now, last_updated: now });
    s.table('site').insert(site('1', '2'));
    s.table('site').insert(site('2', 'two'));
    s.table('tag').insert(tag('1', '2'));
    s.table('tag').insert(tag('2', 'b'));
    const prefix = (id: string, siteId: string, tagId: string) => ({
      id,
      prefix: `10.0.${id}.0/24`,
      prefix_length: 24,
      family: 4,
      status: 'active',
      site: siteId,
      tags: [tagId],
      created: now,
      last_updated: now,
    });
    s.table('prefix').insert(prefix('7', '1', '1'));
    s.table('prefix').insert(prefix('8', '2', '2'));
    const found = async (plan: N.Plan) => idsOf((await s.find('prefix', plan, byId())).rows);
    expect(await found(N.fk('site', 'site', ['2'], false))).to.deep.equal(['7']); // the slug "2": site 1
    expect(await found(N.fk('site', 'site', ['2'], false, true))).to.deep.equal(['8']); // site_id=2
    expect(await found(N.tag('2'))).to.deep.equal(['7']); // the tag whose slug is "2"
    expect(await found(N.tag('b'))).to.deep.equal(['8']);
  });

  it('a replica takes its primary style while empty; a store holding rows keeps its own', async () => {
    const replica = new MemoryStorage(null);
    replica.adoptIdStyle(INTEGER_IDS);
    expect(replica.ids.name).to.equal('integer');
    for (const id of ['10', '9']) replica.mirror([{ resource: 'tag', id, row: tag(id) }]);
    expect(idsOf((await replica.find('tag', N.TRUE, byId())).rows)).to.deep.equal(['9', '10']);
    const held = new MemoryStorage(null);
    await held.apply([{ op: 'create', resource: 'tag', row: tag('00000000-0000-4000-8000-000000000001') }]);
    expect(() => held.adoptIdStyle(INTEGER_IDS)).to.throw(/keeps its uuid ids/);
  });
});
