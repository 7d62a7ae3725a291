// Batching on SQL: a nested query issues the same number of statements for 10 parents as for 1,000
// (each level one read for all its parents), counted at the real driver of a real database.
import { expect } from 'chai';
import { DEFAULT_GRAPHQL_LIMITS, VIEW_ALL } from '../../../app/graphql/contract.js';
import { GraphqlService } from '../../../app/graphql/run-graphql.js';
import { Inventory } from '../../../app/inventory.js';
import { SqlStorage } from '../../../storage/sql/sql-storage.js';
import { BACKENDS, sqlDriver } from '../../e2e/conformance/backends.js';
import { seed } from './seed.js';

const QUERIES = [
  (n: number) =>
    `{ devices(limit: ${n}) { name site { name region { slug } } role { slug } tags { slug } interface_count ` +
    'interfaces { name ip_addresses { address assigned_object { ... on InterfaceType { name } } } } } }',
  (n: number) => `{ interface_list(limit: ${n}) { name device { name tenant { name } } ip_addresses { address } } }`,
  (n: number) =>
    `{ sites(limit: ${n}) { name devices(role: "edge", limit: 1) { name } device_count tenant { name } } }`,
];

for (const backend of BACKENDS.filter((b) => b.driver !== 'memory'))
  describe(`GraphQL statements on ${backend.name}: one read per level, whatever the number of parents`, function () {
    this.timeout(300000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    let storage: SqlStorage;
    let inv: Inventory;
    let gql: GraphqlService;
    const statements: string[] = [];

    before(async function () {
      db = await backend.url();
      if (!db) return this.skip();
      const driver = sqlDriver(backend, db.url);
      const query = driver.query.bind(driver);
      driver.query = (sql, params) => {
        statements.push(sql);
        return query(sql, params);
      };
      storage = new SqlStorage(driver);
      await storage.open();
      // Definitions are read once: no recheck of the change log lands inside a counted request.
      inv = new Inventory(storage, { recheckMs: 3_600_000 });
      await seed(inv, 1000, 1, 1);
      gql = new GraphqlService(inv, storage);
    });
    after(async () => {
      inv?.close();
      await storage?.close();
      await db?.drop();
    });

    const count = async (query: string) => {
      statements.length = 0;
      const got = await gql.run({ query }, { limits: DEFAULT_GRAPHQL_LIMITS, viewer: VIEW_ALL });
      expect(got.errors ?? []).to.deep.equal([]);
      return { n: statements.length, sql: statements.map((x) => x.slice(0, 150)), data: got.data! };
    };

    for (const [i, q] of QUERIES.entries())
      it(`query ${i + 1}: as many statements for 1,000 parents as for 10`, async () => {
        // Warm: the schema, the definitions and the store's table sizes (which related counts weigh a
        // page against, kept for seconds) are read before counting.
        await count(q(1000));
        await count(q(10));
        const ten = await count(q(10));
        const thousand = await count(q(1000));
        expect(Object.values(ten.data)[0]).to.have.length(10);
        expect(Object.values(thousand.data)[0]).to.have.length(1000);
        expect(ten.n).to.be.greaterThan(0);
        expect(thousand.n, `10:\n${ten.sql.join('\n')}\n1000:\n${thousand.sql.join('\n')}`).to.equal(ten.n);
      });
  });
