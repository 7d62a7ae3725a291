// The memoized argument values (app/graphql/argument-memo.ts): computed once per field node and request's
// variables, installed where graphql-js's execute reads them, and never shared across variables.
import { expect } from 'chai';
import { buildSchema, execute, parse } from 'graphql';
import { argumentsMemoized } from '../../../app/graphql/argument-memo.js';

const schema = buildSchema(`
  type Item { tagged(name: String): String }
  type Query { items: [Item] }
`);

describe('GraphQL argument values, once per field and request', () => {
  it('every parent of a list gets one frozen arguments object; other variables, another object', async () => {
    expect(argumentsMemoized()).to.equal(true);
    const seen: object[] = [];
    const rootValue = {
      items: () =>
        [1, 2, 3].map(() => ({
          tagged: (args: { name?: string }) => {
            seen.push(args);
            return args.name ?? null;
          },
        })),
    };
    const document = parse('query ($n: String) { items { tagged(name: $n) } }');
    const first = await execute({ schema, document, rootValue, variableValues: { n: 'a' } });
    expect(first.data).to.deep.equal({ items: [{ tagged: 'a' }, { tagged: 'a' }, { tagged: 'a' }] });
    expect(new Set(seen).size).to.equal(1);
    expect(Object.isFrozen(seen[0])).to.equal(true);
    const second = await execute({ schema, document, rootValue, variableValues: { n: 'b' } });
    expect(second.data).to.deep.equal({ items: [{ tagged: 'b' }, { tagged: 'b' }, { tagged: 'b' }] });
    expect(new Set(seen).size).to.equal(2);
  });
});
