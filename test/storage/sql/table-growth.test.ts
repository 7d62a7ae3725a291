// #34 item 2: a table the API fills from empty is analyzed by the server as it grows (PostgreSQL
// with autovacuum off keeps an empty table's statistics otherwise): once it grew by MIN_ROWS, then by
// GROWTH_SHARE of its size at the last analyze; in the background, one analyze at a time.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import { GROWTH_SHARE, MIN_ROWS, TableGrowth } from '../../../storage/sql/table-growth.js';

describe('TableGrowth: ANALYZE after a table grew', () => {
  it('analyzes a table past MIN_ROWS, then past GROWTH_SHARE of its size, never two at once', async () => {
    const rows = new Map<string, number>();
    const runs: string[] = [];
    let inFlight = 0,
      most = 0;
    const g = new TableGrowth(async (t) => {
      runs.push(t);
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      return rows.get(t) ?? 0;
    });
    const create = (t: string, n: number) => {
      rows.set(t, (rows.get(t) ?? 0) + n);
      g.created(t, n);
    };
    create('prefix', MIN_ROWS - 1);
    await g.idle();
    expect(runs).to.deep.equal([]);
    create('prefix', 1);
    create('object_change', MIN_ROWS);
    await g.idle();
    expect(runs).to.deep.equal(['prefix', 'object_change']);
    expect(most).to.equal(1);
    // At 1,000,000 rows the next analyze waits for GROWTH_SHARE of them.
    create('prefix', 1_000_000 - MIN_ROWS);
    await g.idle();
    expect(runs.filter((t) => t === 'prefix')).to.have.length(2);
    create('prefix', Math.floor(1_000_000 * GROWTH_SHARE) - 1);
    await g.idle();
    expect(runs.filter((t) => t === 'prefix')).to.have.length(2);
    create('prefix', 1);
    await g.idle();
    expect(runs.filter((t) => t === 'prefix')).to.have.length(3);
  });

  it('leaves a failed analyze for the next growth', async () => {
    let fail = true,
      ran = 0;
    const g = new TableGrowth(async () => {
      ran++;
      if (fail) throw new Error('lost');
      return 0;
    });
    g.created('prefix', MIN_ROWS);
    await g.idle();
    fail = false;
    g.created('prefix', 1);
    await g.idle();
    expect(ran).to.equal(2);
    g.created('prefix', 1);
    await g.idle();
    expect(ran).to.equal(2);
  });
});
