// graphql-js computes a field's arguments for every object it resolves the field on, walking every argument the
// field declares (execute.js says so in a TODO: "find a way to memoize, in case this field is within a List
// type"). A nested list here declares every REST filter (~150–185 arguments), so `devices { interfaces {
// ip_addresses } }` over 500 devices walked ~1M argument definitions, a fifth of the request. The values depend
// only on the field, the field's node in the document and the request's variables, so they are kept per node
// and computed once a request. graphql-js reads `getArgumentValues` from its values module at each call, so
// the memoized function is installed on that module (the one execute.js requires), once, at load.
import { createRequire } from 'node:module';
import type { FieldNode, GraphQLField } from 'graphql';

type ArgumentValues = (
  def: GraphQLField<unknown, unknown>,
  node: FieldNode,
  variables?: Readonly<Record<string, unknown>> | null,
) => Record<string, unknown>;

interface Kept {
  readonly def: GraphQLField<unknown, unknown>;
  readonly variables: unknown;
  readonly values: Record<string, unknown>;
}

const values = createRequire(import.meta.url)('graphql/execution/values.js') as {
  getArgumentValues: ArgumentValues & { memoized?: true };
};

if (!values.getArgumentValues.memoized) {
  const compute = values.getArgumentValues;
  const kept = new WeakMap<FieldNode, Kept>();
  const memoized: ArgumentValues & { memoized?: true } = (def, node, variables) => {
    const k = kept.get(node);
    if (k && k.def === def && k.variables === variables) return k.values;
    // Errors are not kept: a bad argument throws on each call, as before.
    const got = compute(def, node, variables);
    // Resolvers receive the same object for every parent: frozen, so none can change another's arguments.
    kept.set(node, { def, variables, values: Object.freeze(got) });
    return got;
  };
  memoized.memoized = true;
  values.getArgumentValues = memoized;
}

/** Whether graphql-js computes each field's arguments once per request (the module above is loaded). */
export const argumentsMemoized = (): boolean => values.getArgumentValues.memoized === true;
