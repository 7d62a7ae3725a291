// The explorer's completion (ui/lib/graphql-complete.ts) on a small schema read through the explorer's own
// introspection query: fields of the type the cursor selects from, a field's arguments, input object
// fields, fragments and aliases followed.
import { expect } from 'chai';
import { buildSchema, graphqlSync } from 'graphql';
import { completeAt, indexSchema, SCHEMA_QUERY, type IntrospectionAnswer } from '../lib/graphql-complete.js';

const schema = buildSchema(`
  input NameLookup { exact: String i_contains: String }
  input SiteFilter { name: NameLookup status: NameLookup OR: SiteFilter }
  type Site { id: ID! name: String status: String devices(role: String, limit: Int): [Device!]! }
  type Device { id: ID! name: String site: Site interfaces(name__isw: [String]): [Interface] }
  type Interface { id: ID! name: String device: Device }
  type Query { sites(name: [String]): [Site] site(id: ID!): Site site_list(filters: SiteFilter): [Site!]! }
`);
const answer = graphqlSync({ schema, source: SCHEMA_QUERY });
const data: unknown = answer.data;
const index = indexSchema(data as IntrospectionAnswer);

/** The labels offered where `|` stands. */
function at(text: string): string[] {
  const cursor = text.indexOf('|');
  return completeAt(index, text.replace('|', ''), cursor).items.map((i) => i.label);
}

describe('GraphQL explorer completion', () => {
  it('reads the schema with its own introspection query', () => {
    expect(answer.errors).to.equal(undefined);
    expect(index.query).to.equal('Query');
  });

  it("offers the root fields, then each nested selection's fields, those starting with the word", () => {
    expect(at('{ |')).to.include.members(['sites', 'site', 'site_list', '__typename']);
    expect(at('{ site_l|')).to.deep.equal(['site_list']);
    expect(at('{ sites { na|')).to.deep.equal(['name']);
    expect(at('{ sites { devices { in|')).to.deep.equal(['interfaces']);
    expect(at('{ sites { devices(role: "edge") { interfaces { device { site { st|')).to.deep.equal(['status']);
    expect(at('{ sites { name } site(id: "1") { devices { |')).to.include.members(['interfaces', 'site']);
    expect(at('{ s|')).to.deep.equal(['sites', 'site', 'site_list']);
    const completion = completeAt(index, '{ sites { na', 12);
    expect(completion.from).to.equal(10);
    expect(completion.items[0]).to.deep.equal({ label: 'name', detail: 'String' });
  });

  it("offers a field's arguments and an input object's fields, not where a value goes", () => {
    expect(at('{ sites { devices(|')).to.deep.equal(['role', 'limit']);
    expect(at('{ sites { devices(role: "x", l|')).to.deep.equal(['limit']);
    expect(at('{ sites { devices(role: |')).to.deep.equal([]);
    expect(at('{ site_list(filters: {|')).to.deep.equal(['name', 'status', 'OR']);
    expect(at('{ site_list(filters: {name: {i_|')).to.deep.equal(['i_contains']);
    expect(at('{ site_list(filters: {OR: {st|')).to.deep.equal(['status']);
    expect(at('{ site_list(filters: {name: {exact: "a"}}) { |')).to.include('devices');
  });

  it('follows aliases, fragments, operation names, strings and comments', () => {
    expect(at('query Q($n: [String]) { a: sites(name: $n) { d: devices { |')).to.include('interfaces');
    expect(at('fragment F on Device { site { |')).to.include('devices');
    expect(at('{ sites { ... on Site { devices { i|')).to.deep.equal(['id', 'interfaces']);
    expect(at('{ sites(name: "{ (") { # a } comment\n de|')).to.deep.equal(['devices']);
    expect(at('|')).to.deep.equal(['query', 'fragment']);
    expect(at('{ nothing { |')).to.deep.equal([]);
  });
});
