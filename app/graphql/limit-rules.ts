// GRAPHQL_MAX_DEPTH and GRAPHQL_MAX_ALIASES as validation rules: checked on the parsed document, before
// any database work. (Filled in by the limits work; until then no rule.)
import type { ValidationRule } from 'graphql';
import type { GraphqlLimits } from './contract.js';

export function limitRules(_limits: GraphqlLimits): ValidationRule[] {
  return [];
}
