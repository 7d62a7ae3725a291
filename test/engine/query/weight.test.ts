// Heavy list queries (capped by MAX_HEAVY_QUERIES) are told from the plan: a regex or
// case-insensitive text lookup, or filters of which none narrows the rows through an index.
import { expect } from 'chai';
import { parseQuery } from '../../../engine/query/parse.js';
import { planQuery } from '../../../engine/plan/planner.js';
import { isHeavy } from '../../../engine/plan/query-weight.js';
import { resource } from '../../../engine/schema/registry.js';

function heavy(name: string, qs: string): boolean {
  const planned = planQuery(resource(name), parseQuery(new URLSearchParams(qs)), { strict: true, customFields: [] });
  expect(planned.errors, qs).to.deep.equal({});
  return isHeavy(planned.plan);
}

describe('heavy list queries', () => {
  const cases: [string, string, boolean][] = [
    ['prefix', '', false],
    ['prefix', 'description=', false],
    ['prefix', 'status=active', false],
    ['prefix', 'status=active&status=reserved', false],
    ['prefix', 'prefix_length__gte=24', false],
    ['prefix', 'network__net_contained=10.0.0.0/8', false],
    ['prefix', 'site=ams1', false],
    ['prefix', 'tag=core', false],
    ['prefix', 'vlan=null', false],
    ['prefix', 'status=active&prefix_length__n=24', false],
    ['prefix', 'description__ic=core', true],
    ['prefix', 'description__re=^a', true],
    ['prefix', 'status=active&description__ire=^a', true],
    ['prefix', 'status__n=active', true],
    ['prefix', 'prefix_length__n=24', true],
    ['prefix', 'description__nisw=x', true],
    ['site', 'region=eu', false],
    ['site', 'name__isw=core', true],
    ['site', 'q=ams', true],
  ];
  for (const [name, qs, want] of cases) {
    it(`${name}?${qs || '(no filter)'} is ${want ? 'heavy' : 'light'}`, () => {
      expect(heavy(name, qs)).to.equal(want);
    });
  }
});
