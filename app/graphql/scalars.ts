// The schema's own scalars: `JSON` (custom field values, json fields: any JSON value, served as it is) and
// `FilterValue` (a filter argument's value: a string, a number or a boolean, read as the text REST would get
// for the same parameter, so `cf_rack_count__lt: 4` and `cf_rack_count__lt: "4"` are one filter).
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

function literalJson(node: ValueNode, variables: Readonly<Record<string, unknown>> | null | undefined): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.ENUM:
      return node.value;
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((v) => literalJson(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literalJson(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[node.name.value] ?? null;
  }
}

export const JsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value (custom fields, json fields), served as stored.',
  serialize: (v) => v,
  parseValue: (v) => v,
  parseLiteral: literalJson,
});

/** A filter value as the text of the REST parameter it stands for. */
export function filterText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  throw new GraphQLError('a filter value is a string, a number or a boolean');
}

export const FilterValueScalar = new GraphQLScalarType({
  name: 'FilterValue',
  description:
    'A filter value: a string, a number or a boolean, read as the same text in a REST query parameter. ' +
    'A list of them is the repeated parameter.',
  serialize: (v) => v,
  parseValue: filterText,
  parseLiteral(node) {
    if (node.kind === Kind.STRING || node.kind === Kind.INT || node.kind === Kind.FLOAT) return node.value;
    if (node.kind === Kind.BOOLEAN) return node.value ? 'true' : 'false';
    throw new GraphQLError('a filter value is a string, a number or a boolean', { nodes: node });
  },
});
