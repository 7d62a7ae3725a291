// GRAPHQL_MAX_DEPTH and GRAPHQL_MAX_ALIASES as validation rules: checked on the parsed document, before
// any database work. Each error names its setting.
//
// Depth: the root field is level 1, each selection set below a field one more; fragments (named and
// inline) are followed, so a spread adds its fragment's depth where it is spread. Every operation in the
// document is checked (validation does not know which one will run). Introspection counts like any other
// field, except `ofType`: it only unwraps a list or non-null type (one object, no fan-out), and the
// introspection query of GraphiQL and graphql-js nests it 7-9 times; without it that query is 5 deep.
//
// Aliases: every aliased field written in the document, each counted once as written (a fragment's
// aliases once, however often it is spread).
import { GraphQLError, Kind, type FieldNode, type SelectionSetNode, type ValidationRule } from 'graphql';
import type { GraphqlLimits } from './contract.js';

/** Introspection fields that add no level: a type reference's unwrapping. */
const FREE_FIELDS: ReadonlySet<string> = new Set(['ofType']);

interface Deepest {
  readonly depth: number;
  readonly field: FieldNode | null;
}

const NONE: Deepest = { depth: 0, field: null };

/** The deepest field under `set`, at `above` levels already; fragments followed, each once per path. */
function deepest(
  set: SelectionSetNode | undefined,
  above: number,
  fragment: (name: string) => SelectionSetNode | undefined,
  seen: ReadonlySet<string>,
): Deepest {
  let best = NONE;
  for (const s of set?.selections ?? []) {
    let got = NONE;
    if (s.kind === Kind.FIELD) {
      const level = FREE_FIELDS.has(s.name.value) ? above : above + 1;
      const below = deepest(s.selectionSet, level, fragment, seen);
      got = below.depth > level ? below : { depth: level, field: s };
    } else if (s.kind === Kind.INLINE_FRAGMENT) {
      got = deepest(s.selectionSet, above, fragment, seen);
    } else if (!seen.has(s.name.value)) {
      // a cycle is NoFragmentCycles' error; here it just stops
      got = deepest(fragment(s.name.value), above, fragment, new Set([...seen, s.name.value]));
    }
    if (got.depth > best.depth) best = got;
  }
  return best;
}

export function maxDepthRule(maxDepth: number): ValidationRule {
  return (context) => ({
    OperationDefinition(op) {
      const fragment = (name: string) => context.getFragment(name)?.selectionSet;
      const got = deepest(op.selectionSet, 0, fragment, new Set());
      if (got.depth <= maxDepth || !got.field) return;
      const name = got.field.alias?.value ?? got.field.name.value;
      context.reportError(
        new GraphQLError(
          `The query is ${got.depth} levels deep (at "${name}"), more than GRAPHQL_MAX_DEPTH allows (${maxDepth}).`,
          { nodes: got.field, extensions: { code: 'GRAPHQL_MAX_DEPTH', limit: maxDepth, depth: got.depth } },
        ),
      );
    },
  });
}

export function maxAliasesRule(maxAliases: number): ValidationRule {
  return (context) => {
    let count = 0;
    let over: FieldNode | null = null;
    return {
      Field(node) {
        if (!node.alias) return;
        count++;
        if (count === maxAliases + 1) over = node;
      },
      Document: {
        leave() {
          if (!over) return;
          context.reportError(
            new GraphQLError(`The query has ${count} aliases, more than GRAPHQL_MAX_ALIASES allows (${maxAliases}).`, {
              nodes: over,
              extensions: { code: 'GRAPHQL_MAX_ALIASES', limit: maxAliases, aliases: count },
            }),
          );
        },
      },
    };
  };
}

export function limitRules(limits: GraphqlLimits): ValidationRule[] {
  return [maxDepthRule(limits.maxDepth), maxAliasesRule(limits.maxAliases)];
}
