// One object type per resource, from its registry entry: scalar fields by kind, every foreign key as its
// object, tags, custom fields (`custom_fields` as JSON and `cf_<name>` each), related counts, generic
// references as a union of their targets, and every reverse reference as a nested list taking the REST
// list's filters. Built once per set of custom field definitions.
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  GraphQLUnionType,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  type GraphQLOutputType,
} from 'graphql';
import { genericRefs } from '../../engine/schema/generic-refs.js';
import type { ReverseRef } from '../../engine/schema/reverse-refs.js';
import { servedNames } from '../../engine/schema/served-names.js';
import type { CustomFieldDef, CustomFieldType, FieldDef, ResourceDef } from '../../engine/schema/types.js';
import type { Row } from '../../storage/types.js';
import { filterArgs } from './filter-args.js';
import { typeName } from './names.js';
import { prefixTreeFields } from './prefix-tree.js';
import {
  cfResolver,
  countResolver,
  customFieldsResolver,
  fkResolver,
  genericId,
  genericResolver,
  genericType,
  renamed,
  reverseResolver,
  tagsResolver,
} from './resolvers.js';
import type { RequestScope } from './request-scope.js';
import { JsonScalar } from './scalars.js';

type Field = GraphQLFieldConfig<Row, RequestScope>;

const INT32_MAX = 2 ** 31 - 1;

/** The GraphQL type of a plain field (null: the kind is served by a resolver of its own). */
function scalarType(f: FieldDef): GraphQLOutputType | null {
  switch (f.kind) {
    case 'integer':
      // Beyond GraphQL's 32-bit Int (an ASN): a Float carries it exactly.
      return f.max !== undefined && f.max <= INT32_MAX && (f.min ?? 0) >= -INT32_MAX ? GraphQLInt : GraphQLFloat;
    case 'boolean':
      return GraphQLBoolean;
    case 'json':
    case 'custom_fields':
      return JsonScalar;
    case 'string_list':
      return new GraphQLList(new GraphQLNonNull(GraphQLString));
    case 'fk':
    case 'tags':
    case 'uuid':
      return null;
    default:
      return GraphQLString;
  }
}

const CF_TYPES: Record<CustomFieldType, () => GraphQLOutputType> = {
  text: () => GraphQLString,
  url: () => GraphQLString,
  date: () => GraphQLString,
  select: () => GraphQLString,
  integer: () => GraphQLFloat,
  boolean: () => GraphQLBoolean,
  'multi-select': () => new GraphQLList(new GraphQLNonNull(GraphQLString)),
  json: () => JsonScalar,
};

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

export interface TypeSources {
  readonly resources: ReadonlyMap<string, ResourceDef>;
  readonly reverse: ReadonlyMap<string, readonly ReverseRef[]>;
  readonly customFields: (r: ResourceDef) => readonly CustomFieldDef[];
}

export class ObjectTypes {
  readonly byName = new Map<string, GraphQLObjectType>();
  private readonly unions = new Map<string, GraphQLUnionType>();

  constructor(private readonly src: TypeSources) {
    for (const r of src.resources.values())
      this.byName.set(
        r.name,
        new GraphQLObjectType({ name: typeName(r), description: r.description, fields: () => this.fieldsOf(r) }),
      );
  }

  of(name: string): GraphQLObjectType {
    return this.byName.get(name)!;
  }

  private fieldsOf(r: ResourceDef): GraphQLFieldConfigMap<Row, RequestScope> {
    const out: GraphQLFieldConfigMap<Row, RequestScope> = {};
    const put = (name: string, field: Field) => {
      if (name in out) throw new Error(`graphql: ${typeName(r)}.${name} defined twice`);
      if (GRAPHQL_NAME.test(name) && !name.startsWith('__')) out[name] = field;
    };
    put('id', { type: new GraphQLNonNull(GraphQLID) });
    for (const f of r.fields) if (!f.hidden && f.kind !== 'uuid') this.addField(r, f, put);
    for (const c of r.counts ?? []) put(c.name, { type: GraphQLInt, description: c.label, resolve: countResolver(c) });
    for (const g of genericRefs(r)) {
      const targets = new Map(g.fields.map((f) => [f.name, this.src.resources.get(f.target!)!]));
      if ([...targets.values()].some((t) => !t)) continue;
      put(g.typeKey, { type: GraphQLString, description: `${g.label}: content type`, resolve: genericType(g) });
      put(g.idKey, { type: GraphQLID, description: `${g.label}: id`, resolve: genericId(g) });
      put(g.name, { type: this.union(r, g.name, [...targets.values()]), resolve: genericResolver(g, targets) });
    }
    for (const ref of this.src.reverse.get(r.name) ?? [])
      put(ref.name, {
        type: new GraphQLList(new GraphQLNonNull(this.of(ref.resource.name))),
        description: `${ref.resource.label} objects whose ${ref.field.name} is this one`,
        args: filterArgs(ref.resource, this.src.customFields(ref.resource)),
        resolve: reverseResolver(ref, r.name),
      });
    const tree = prefixTreeFields(r, this.of(r.name), filterArgs(r, this.src.customFields(r)));
    for (const [name, field] of Object.entries(tree)) put(name, field);
    return out;
  }

  private addField(r: ResourceDef, f: FieldDef, put: (name: string, field: Field) => void): void {
    const names = servedNames(f);
    if (f.kind === 'fk') {
      const target = this.src.resources.get(f.target!);
      for (const n of names)
        put(n, target ? { type: this.of(target.name), resolve: fkResolver(f.name, target) } : { type: GraphQLID });
      return;
    }
    if (f.kind === 'tags') {
      const tag = this.src.resources.get('tag');
      if (tag)
        put(f.name, { type: new GraphQLList(new GraphQLNonNull(this.of('tag'))), resolve: tagsResolver(f.name, tag) });
      return;
    }
    if (f.kind === 'custom_fields') {
      put(f.name, { type: JsonScalar, resolve: customFieldsResolver(r, f.name) });
      for (const d of this.src.customFields(r))
        put(`cf_${d.name}`, { type: CF_TYPES[d.type](), description: d.label, resolve: cfResolver(f.name, d.name) });
      return;
    }
    const type = scalarType(f);
    if (type)
      for (const n of names)
        put(n, { type, description: f.label, ...(n === f.name ? {} : { resolve: renamed(f.name) }) });
  }

  /** A generic reference's union: `<Type><Name>` (IpAddressTypeAssignedObject). */
  private union(r: ResourceDef, name: string, targets: ResourceDef[]): GraphQLUnionType {
    const key = `${typeName(r)}${name.replace(/(^|_)(\w)/g, (_m, _u, c: string) => c.toUpperCase())}`;
    let u = this.unions.get(key);
    if (!u) {
      u = new GraphQLUnionType({
        name: key,
        types: () => targets.map((t) => this.of(t.name)),
        resolveType: (value: Row, scope: RequestScope) => {
          const t = scope.kinds.get(value);
          return t ? typeName(t) : undefined;
        },
      });
      this.unions.set(key, u);
    }
    return u;
  }
}
