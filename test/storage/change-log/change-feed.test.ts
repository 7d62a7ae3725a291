// ChangeFeed.waitAfter: a local commit wakes at once, a counter already past wakes at once, and
// however many wait (one per open event stream), the counter is read by one poll at a time.
import { expect } from 'chai';
import { ChangeFeed, noteCommitted } from '../../../storage/change-log/change-feed.js';
import type { Storage } from '../../../storage/types.js';

/** A store whose counter the test sets, counting the reads and how many run at once. */
function counterStore(start: number) {
  const s = { n: start, reads: 0, running: 0, most: 0 };
  const storage = {
    changeSeq: async () => {
      s.reads++;
      s.running++;
      s.most = Math.max(s.most, s.running);
      await new Promise((r) => setTimeout(r, 2));
      s.running--;
      return s.n;
    },
  } as unknown as Storage;
  return { s, storage };
}

/** What `p` resolved to within `ms`, else 'late'. */
const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<'late'>((r) => setTimeout(() => r('late'), ms))]);

describe('change feed wake-ups', () => {
  it('fifty waiters share one poll of the counter at a time, and all wake when it passes them', async () => {
    const { s, storage } = counterStore(1000);
    const feed = new ChangeFeed(storage, { pollMs: 50 });
    const waits = Array.from({ length: 50 }, () => feed.waitAfter(1000));
    await new Promise((r) => setTimeout(r, 500));
    expect(s.most).to.equal(1);
    expect(s.reads).to.be.within(5, 16); // about one per 50 ms, not one per waiter
    s.n = 1001;
    expect(await within(Promise.all(waits), 200)).to.deep.equal(waits.map(() => 1001)); // each told the seq seen
    const after = s.reads;
    await new Promise((r) => setTimeout(r, 200));
    expect(s.reads).to.equal(after); // nobody waits: no more polls
  });

  it('a counter already past the seq wakes at once; a local commit wakes at once, with its seq', async () => {
    const { s, storage } = counterStore(2000);
    const feed = new ChangeFeed(storage, { pollMs: 60_000 });
    expect(await within(feed.waitAfter(1999), 100)).to.equal(2000);
    const waiting = feed.waitAfter(2000);
    await new Promise((r) => setTimeout(r, 30));
    s.n = 2001;
    noteCommitted(2001);
    expect(await within(waiting, 50)).to.equal(2001);
  });

  it('an abort wakes the waiter and stops the polls', async () => {
    const { s, storage } = counterStore(3000);
    const feed = new ChangeFeed(storage, { pollMs: 20 });
    const ac = new AbortController();
    const waiting = feed.waitAfter(3000, ac.signal);
    await new Promise((r) => setTimeout(r, 100));
    ac.abort();
    expect(await within(waiting, 50)).to.equal(null);
    const after = s.reads;
    await new Promise((r) => setTimeout(r, 100));
    expect(s.reads).to.be.at.most(after + 1);
  });

  it(
    'an announced feed waits without reading the counter, wakes on an announcement, and at once if one came ' +
      'since its read',
    async () => {
      const { s, storage } = counterStore(4000);
      (storage as unknown as { find: unknown }).find = async () => ({ rows: [], count: null });
      const feed = new ChangeFeed(storage, { pollMs: 60_000, announced: true });
      try {
        await feed.read(4000, 10);
        const waiting = feed.waitAfter(4000);
        expect(await within(waiting, 50)).to.equal('late');
        expect(s.reads).to.equal(0); // no round trip to start a wait
        noteCommitted(4001);
        expect(await within(waiting, 50)).to.equal(4001);
        // Announced while nobody waited (during a read, say): the next wait ends at once, without a poll, with the seq
        // announced.
        await feed.read(4000, 10);
        noteCommitted(4002);
        expect(await within(feed.waitAfter(4001), 20)).to.equal(4002);
        expect(s.reads).to.equal(0);
        // Once read, the next wait waits again.
        await feed.read(4002, 10);
        const ac = new AbortController();
        const last = feed.waitAfter(4002, ac.signal);
        expect(await within(last, 50)).to.equal('late');
        ac.abort();
        expect(await last).to.equal(null);
      } finally {
        feed.close();
      }
    },
  );
});
