// A prefix's place in the containment tree (server/prefix-tree.ts serves the same on REST): `parent`,
// `children` (the REST `?parent=<id>` list) and `children_count`. Filled in below.
import type { GraphQLFieldConfig } from 'graphql';
import type { ResourceDef } from '../../engine/schema/types.js';
import type { Row } from '../../storage/types.js';
import type { RequestScope } from './request-scope.js';

export function prefixTreeFields(
  _r: ResourceDef,
  _types: { of(name: string): unknown },
): Record<string, GraphQLFieldConfig<Row, RequestScope>> {
  return {};
}
