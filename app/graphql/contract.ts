// What the GraphQL pieces agree on: the request, the limits, who asks. The HTTP door (server/routes/graphql.ts)
// builds these; `runGraphql` (run-graphql.ts) answers; the limit rules (limit-rules.ts) and NetBox 4's filter
// input (netbox-filters.ts) plug into the schema and the validation.
import type { Plan } from '../../engine/plan/nodes.js';
import type { CustomFieldDef, ResourceDef } from '../../engine/schema/types.js';

export interface GraphqlRequest {
  readonly query: string;
  readonly variables?: Readonly<Record<string, unknown>> | null;
  readonly operationName?: string | null;
}

/** GRAPHQL_MAX_DEPTH, GRAPHQL_MAX_ALIASES, GRAPHQL_MAX_OBJECTS, and the REST page-size cap (MAX_PAGE_SIZE). */
export interface GraphqlLimits {
  readonly maxDepth: number;
  readonly maxAliases: number;
  readonly maxObjects: number;
  readonly maxPageSize: number;
}

export const DEFAULT_GRAPHQL_LIMITS: GraphqlLimits = {
  maxDepth: 10,
  maxAliases: 10,
  maxObjects: 100_000,
  maxPageSize: 1000,
};

/**
 * Who asks: a type the viewer may not view is an error at the root and null where nested; of a type it
 * may view, only the objects of its scope (its object permissions' constraints, issue #39) are read,
 * wherever they appear: lists, objects by id, nested lists, related objects. `customFields`: every
 * definition (the constraints may name custom fields). No scope: every object.
 */
export interface GraphqlViewer {
  canView(r: ResourceDef): boolean;
  scope?(r: ResourceDef, customFields: readonly CustomFieldDef[]): Plan;
  /**
   * Rows judged by more than their own fields (change records and webhook deliveries, by the copy of the
   * object they name): whether `r`'s are, and of a read of `r` matching `where`, those the viewer may see,
   * as a plan to AND in.
   */
  readonly rows?: {
    judges(r: ResourceDef): boolean;
    plan(r: ResourceDef, where: Plan): Promise<Plan>;
  };
}

export const VIEW_ALL: GraphqlViewer = { canView: () => true };
