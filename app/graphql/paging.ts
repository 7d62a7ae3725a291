// `limit` and `offset` of a list field: no limit is every match (bounded by GRAPHQL_MAX_OBJECTS), a limit
// above the REST page-size cap is clamped to it (0 is the cap, as on REST); negative values are errors.
import { GraphQLError } from 'graphql';
import type { RequestScope } from './request-scope.js';

export function pageArgs(
  scope: RequestScope,
  args: Readonly<Record<string, unknown>>,
  given?: { readonly limit?: unknown; readonly offset?: unknown } | null,
): { limit: number; offset: number } {
  const limit = (given?.limit ?? args.limit) as number | null | undefined;
  const offset = (given?.offset ?? args.offset) as number | null | undefined;
  for (const [name, v] of [
    ['limit', limit],
    ['offset', offset],
  ] as const)
    if (typeof v === 'number' && v < 0)
      throw new GraphQLError(`${name}: must be 0 or more`, { extensions: { code: 'BAD_PAGING', argument: name } });
  const max = scope.limits.maxPageSize;
  return {
    limit: limit === null || limit === undefined ? Infinity : limit === 0 || limit > max ? max : limit,
    offset: offset ?? 0,
  };
}
