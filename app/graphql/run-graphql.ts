// GraphQL over the inventory (no HTTP here: server/routes/graphql.ts is the door). The schema is generated
// from the registry and kept until the custom field definitions change; a request is parsed, validated
// (the spec's rules and GRAPHQL_MAX_DEPTH / GRAPHQL_MAX_ALIASES) before any read, refused unless it is a
// query, and executed with batched reads (resolvers.ts) counted against GRAPHQL_MAX_OBJECTS.
import {
  execute,
  getOperationAST,
  GraphQLError,
  GraphQLObjectType,
  GraphQLSchema,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionResult,
} from 'graphql';
import './argument-memo.js'; // first use installs the memoized argument values graphql-js calls
import { PlanCache } from '../../engine/plan/plan-cache.js';
import { RESOURCES } from '../../engine/schema/registry.js';
import { reverseRefs } from '../../engine/schema/reverse-refs.js';
import type { CustomFieldDef, ResourceDef } from '../../engine/schema/types.js';
import type { Storage } from '../../storage/types.js';
import type { Inventory } from '../inventory.js';
import type { GraphqlLimits, GraphqlRequest, GraphqlViewer } from './contract.js';
import { limitRules } from './limit-rules.js';
import { rootNames } from './names.js';
import { NetboxFilterTypes } from './netbox-filters.js';
import { ObjectTypes } from './object-types.js';
import { withFilterVariables } from './filter-variables-rule.js';
import { RequestScope } from './request-scope.js';
import { rootFields } from './root-fields.js';

export interface GraphqlRunOptions {
  readonly limits: GraphqlLimits;
  readonly viewer: GraphqlViewer;
  readonly signal?: AbortSignal;
}

/** The schema and the custom field definitions it was built from. */
interface Built {
  readonly defs: readonly CustomFieldDef[];
  readonly schema: GraphQLSchema;
  readonly customFields: (r: ResourceDef) => readonly CustomFieldDef[];
}

/** The inventory resources the schema serves, in registry order. */
const served = (): ResourceDef[] => RESOURCES.filter((r) => r.inventory !== false);

export class GraphqlService {
  private built: Promise<Built> | null = null;
  private readonly plans = new PlanCache();

  constructor(
    private readonly inventory: Inventory,
    private readonly storage: Storage,
  ) {}

  /** The schema in force: rebuilt only when the custom field definitions changed. */
  async schema(): Promise<GraphQLSchema> {
    return (await this.current()).schema;
  }

  private async current(): Promise<Built> {
    const defs = await this.inventory.customFields();
    let b = this.built ? await this.built : null;
    if (!b || b.defs !== defs) {
      const building = (this.built = this.build(defs));
      // A failed build is not kept: the next request tries again.
      building.catch(() => {
        if (this.built === building) this.built = null;
      });
      b = await building;
    }
    return b;
  }

  private async build(defs: readonly CustomFieldDef[]): Promise<Built> {
    const list = served();
    const byResource = new Map<string, readonly CustomFieldDef[]>();
    for (const r of list) byResource.set(r.name, await this.inventory.customFieldsFor(r));
    const customFields = (r: ResourceDef) => byResource.get(r.name) ?? [];
    const resources = new Map(list.map((r) => [r.name, r]));
    const types = new ObjectTypes({ resources, reverse: reverseRefs(list), customFields });
    const query = new GraphQLObjectType({
      name: 'Query',
      fields: () => rootFields(list, rootNames(list), types, new NetboxFilterTypes(), customFields),
    });
    const schema = new GraphQLSchema({ query, types: [...types.byName.values()] });
    schema.getTypeMap(); // fields resolved now, not on the first request
    return { defs, schema, customFields };
  }

  /** Answers one request: errors as GraphQL errors, never a throw for bad input. */
  async run(req: GraphqlRequest, opts: GraphqlRunOptions): Promise<ExecutionResult> {
    const built = await this.current();
    let document: DocumentNode;
    try {
      document = parse(req.query);
    } catch (e) {
      return { errors: [e instanceof GraphQLError ? e : new GraphQLError(String(e))] };
    }
    const op = getOperationAST(document, req.operationName ?? undefined);
    if (op && op.operation !== 'query')
      return {
        errors: [
          new GraphQLError(`This API is read-only: a ${op.operation} is not served; send a query.`, {
            nodes: op,
            extensions: { code: 'READ_ONLY' },
          }),
        ],
      };
    const errors = validate(built.schema, document, [
      ...withFilterVariables(specifiedRules),
      ...limitRules(opts.limits),
    ]);
    if (errors.length) return { errors };
    const { storage, plans } = this;
    const scope = new RequestScope(
      storage,
      opts.viewer,
      opts.limits,
      built.customFields,
      opts.signal,
      plans,
      built.defs,
    );
    const result = await execute({
      schema: built.schema,
      document,
      contextValue: scope,
      variableValues: req.variables ?? undefined,
      operationName: req.operationName ?? undefined,
    });
    if (scope.overflow) return { errors: [scope.overflow] };
    return result.errors ? { ...result, errors: onceEach(result.errors) } : result;
  }
}

/** A nested field's error is raised for each of its parents: the answer names it once. */
function onceEach(errors: readonly GraphQLError[]): GraphQLError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = `${e.message}|${JSON.stringify(e.locations ?? [])}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
