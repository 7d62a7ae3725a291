// GRAPHQL_MAX_DEPTH and GRAPHQL_MAX_ALIASES as validation rules, against a small schema of their own: the
// root field is level 1, fragments are followed, introspection passes at the defaults, each error names its
// setting.
import { expect } from 'chai';
import { buildSchema, getIntrospectionQuery, parse, specifiedRules, validate } from 'graphql';
import { DEFAULT_GRAPHQL_LIMITS } from '../../../app/graphql/contract.js';
import { limitRules } from '../../../app/graphql/limit-rules.js';

const schema = buildSchema(`
  type Site { id: ID! name: String devices(role: String): [Device] }
  type Device { id: ID! name: String site: Site interfaces: [Interface] }
  type Interface { id: ID! name: String device: Device }
  type Query { sites: [Site] site(id: ID!): Site devices: [Device] }
`);

function errorsOf(query: string, over: Partial<typeof DEFAULT_GRAPHQL_LIMITS> = {}) {
  const rules = [...specifiedRules, ...limitRules({ ...DEFAULT_GRAPHQL_LIMITS, ...over })];
  return validate(schema, parse(query), rules).map((e) => ({ message: e.message, code: e.extensions.code }));
}

/** `depth` levels, the leaf included: sites { devices { site { devices { ... name } } } }. */
function nested(depth: number): string {
  let q = 'name';
  for (let level = depth - 1; level >= 1; level--)
    q = `${level === 1 ? 'sites' : level % 2 ? 'site' : 'devices'} { ${q} }`;
  return `{ ${q} }`;
}

describe('GraphQL limit rules', () => {
  it('counts the root field as level 1: a query as deep as the limit passes, one level more is refused', () => {
    expect(errorsOf('{ sites { name } }', { maxDepth: 2 })).to.deep.equal([]);
    const refused = errorsOf('{ sites { name } }', { maxDepth: 1 });
    expect(refused).to.have.length(1);
    expect(refused[0].code).to.equal('GRAPHQL_MAX_DEPTH');
    expect(refused[0].message).to.contain('GRAPHQL_MAX_DEPTH').and.contain('2 levels deep').and.contain('(1)');
    expect(errorsOf(nested(10))).to.deep.equal([]);
    const eleven = errorsOf(nested(11));
    expect(eleven.map((e) => e.code)).to.deep.equal(['GRAPHQL_MAX_DEPTH']);
    expect(eleven[0].message).to.contain('11 levels deep');
  });

  it('follows named and inline fragments where they are spread', () => {
    const q = `
      query { sites { ...S } }
      fragment S on Site { devices { ... on Device { interfaces { ...I } } } }
      fragment I on Interface { device { name } }`;
    // sites 1, devices 2, interfaces 3, device 4, name 5
    expect(errorsOf(q, { maxDepth: 5 })).to.deep.equal([]);
    expect(errorsOf(q, { maxDepth: 4 }).map((e) => e.message)).to.deep.equal([
      'The query is 5 levels deep (at "name"), more than GRAPHQL_MAX_DEPTH allows (4).',
    ]);
  });

  it('checks every operation of the document, and stops at a fragment cycle (reported by its own rule)', () => {
    const two = 'query A { sites { name } } query B { sites { devices { interfaces { name } } } }';
    expect(errorsOf(two, { maxDepth: 3 }).map((e) => e.code)).to.deep.equal(['GRAPHQL_MAX_DEPTH']);
    const cycle = 'query { sites { ...A } } fragment A on Site { devices { site { ...A } } }';
    const codes = errorsOf(cycle).map((e) => e.code);
    expect(codes).to.not.include('GRAPHQL_MAX_DEPTH');
    expect(codes).to.have.length.greaterThan(0); // NoFragmentCyclesRule
  });

  it('passes the introspection query of graphql-js and GraphiQL at the default limits, all options on', () => {
    const q = getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
    });
    expect(errorsOf(q)).to.deep.equal([]);
    // ofType adds no level; the rest of introspection counts: __schema types fields args type kind = 6
    expect(errorsOf(q, { maxDepth: 6 })).to.deep.equal([]);
    expect(errorsOf(q, { maxDepth: 5 }).map((e) => e.code)).to.deep.equal(['GRAPHQL_MAX_DEPTH']);
    const typeQuery = '{ __type(name: "Site") { fields { type { fields { name } } } } }'; // 5 levels
    expect(errorsOf(typeQuery, { maxDepth: 5 })).to.deep.equal([]);
    expect(errorsOf(typeQuery, { maxDepth: 4 }).map((e) => e.code)).to.deep.equal(['GRAPHQL_MAX_DEPTH']);
  });

  it('counts aliased fields as written: as many as the limit pass, one more is refused naming the setting', () => {
    const aliased = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `s${i}: sites { name }`).join(' ')} }`;
    expect(errorsOf(aliased(10))).to.deep.equal([]);
    const refused = errorsOf(aliased(11));
    expect(refused).to.deep.equal([
      {
        message: 'The query has 11 aliases, more than GRAPHQL_MAX_ALIASES allows (10).',
        code: 'GRAPHQL_MAX_ALIASES',
      },
    ]);
    const inFragment = '{ a: sites { ...F } b: sites { ...F } } fragment F on Site { x: name y: name z: id }';
    expect(errorsOf(inFragment, { maxAliases: 5 })).to.deep.equal([]);
    expect(errorsOf(inFragment, { maxAliases: 4 }).map((e) => e.code)).to.deep.equal(['GRAPHQL_MAX_ALIASES']);
    expect(errorsOf('{ sites { name } }', { maxAliases: 0 })).to.deep.equal([]);
    expect(errorsOf('{ s: sites { name } }', { maxAliases: 0 }).map((e) => e.code)).to.deep.equal([
      'GRAPHQL_MAX_ALIASES',
    ]);
  });
});
