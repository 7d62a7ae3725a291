// graphql-js's VariablesInAllowedPositionRule, made to accept a `String`/`Int`/`Float`/`Boolean`/`ID` variable
// (or a list of them) where a filter argument (`[FilterValue]`) is expected: clients written for Nautobot
// declare `query ($name: [String])` for filters, and the value is read as REST reads the same text either way.
// Every other usage is checked by the unchanged rule.
import {
  getNamedType,
  isListType,
  isNonNullType,
  typeFromAST,
  VariablesInAllowedPositionRule,
  type ASTNode,
  type ASTVisitor,
  type GraphQLError,
  type GraphQLType,
  type OperationDefinitionNode,
  type ValidationContext,
  type VariableDefinitionNode,
} from 'graphql';
import { FilterValueScalar } from './scalars.js';

const TEXT_SCALARS: ReadonlySet<string> = new Set(['String', 'Int', 'Float', 'Boolean', 'ID']);

const listDepth = (t: GraphQLType): number =>
  isNonNullType(t) ? listDepth(t.ofType) : isListType(t) ? 1 + listDepth(t.ofType) : 0;

export function FilterVariablesRule(context: ValidationContext): ASTVisitor {
  const lenient = new Set<ASTNode>();
  const defs = new Map<string, VariableDefinitionNode>();
  const guarded = new Proxy(context, {
    get(target, prop) {
      if (prop === 'reportError')
        return (e: GraphQLError) => {
          if (!e.nodes?.some((n) => lenient.has(n))) target.reportError(e);
        };
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  const inner = VariablesInAllowedPositionRule(guarded) as Record<string, unknown>;
  const op = inner.OperationDefinition as {
    enter: (node: OperationDefinitionNode) => void;
    leave: (node: OperationDefinitionNode) => void;
  };
  return {
    ...inner,
    OperationDefinition: {
      enter(node) {
        lenient.clear();
        defs.clear();
        op.enter(node);
      },
      leave(node) {
        for (const { node: usage, type } of context.getRecursiveVariableUsages(node)) {
          const def = defs.get(usage.name.value);
          const varType = def ? typeFromAST(context.getSchema(), def.type) : undefined;
          if (!type || !varType || getNamedType(type) !== FilterValueScalar) continue;
          if (TEXT_SCALARS.has(getNamedType(varType).name) && listDepth(varType) <= listDepth(type)) lenient.add(usage);
        }
        op.leave(node);
      },
    },
    VariableDefinition(node, ...rest) {
      defs.set(node.variable.name.value, node);
      (inner.VariableDefinition as (n: VariableDefinitionNode, ...r: unknown[]) => void)(node, ...rest);
    },
  };
}

/** graphql-js's rules with the variable position rule above in place of its own. */
export const withFilterVariables = <T extends (c: ValidationContext) => ASTVisitor>(rules: readonly T[]) =>
  rules.map((r) => ((r as unknown) === VariablesInAllowedPositionRule ? FilterVariablesRule : r));
