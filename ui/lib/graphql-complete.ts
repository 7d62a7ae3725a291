// Completion for the GraphQL explorer, from the server's own introspection answer (no GraphQL library in the
// bundle): the text before the cursor is read token by token, keeping which type each open selection set
// selects from and which field's arguments are open; then the fields of that type, or that field's
// arguments, starting with the word being typed (any case) are offered.

/** What the explorer asks the server (a type reference four wrappers deep covers `[T!]!` and more). */
export const SCHEMA_QUERY = `query ExplorerSchema {
  __schema {
    queryType { name }
    types {
      name kind description
      fields { name description args { name type { ...Ref } } type { ...Ref } }
      inputFields { name type { ...Ref } }
    }
  }
}
fragment Ref on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }`;

interface TypeRef {
  readonly kind: string;
  readonly name: string | null;
  readonly ofType?: TypeRef | null;
}
interface Arg {
  readonly name: string;
  readonly type: TypeRef;
}
interface Field extends Arg {
  readonly description?: string | null;
  readonly args?: readonly Arg[];
}
interface FullType {
  readonly name: string;
  readonly kind: string;
  readonly fields?: readonly Field[] | null;
  readonly inputFields?: readonly Arg[] | null;
}
export interface IntrospectionAnswer {
  readonly __schema: { readonly queryType: { readonly name: string }; readonly types: readonly FullType[] };
}

export interface SchemaIndex {
  readonly query: string;
  readonly types: ReadonlyMap<string, FullType>;
}

export const indexSchema = (a: IntrospectionAnswer): SchemaIndex => ({
  query: a.__schema.queryType.name,
  types: new Map(a.__schema.types.map((t) => [t.name, t])),
});

/** `[Site!]!` as written in GraphQL. */
export function typeText(t: TypeRef): string {
  if (t.kind === 'NON_NULL' && t.ofType) return `${typeText(t.ofType)}!`;
  if (t.kind === 'LIST' && t.ofType) return `[${typeText(t.ofType)}]`;
  return t.name ?? '?';
}

const named = (t: TypeRef): string | null => (t.ofType ? named(t.ofType) : t.name);

export interface Item {
  readonly label: string;
  readonly detail: string;
}
export interface Completion {
  /** Where the word being completed starts: an accepted item replaces text from here to the cursor. */
  readonly from: number;
  readonly items: readonly Item[];
}

/** An open `{` or `(`: the type a selection set selects from, or the field whose arguments these are. */
type Frame =
  | { kind: 'select'; type: string | null }
  | { kind: 'args'; field: Field | null }
  | { kind: 'value'; type: string | null };

const TOKEN =
  /\s+|,|#[^\n]*|"""[\s\S]*?(?:"""|$)|"(?:[^"\\\n]|\\.)*"?|\.\.\.|[_A-Za-z][_0-9A-Za-z]*|-?\d[\d.eE+-]*|\S/gy;

function fieldOf(index: SchemaIndex, type: string | null, name: string): Field | null {
  return index.types.get(type ?? '')?.fields?.find((f) => f.name === name) ?? null;
}

/** What is open at the cursor, and the last words before it. */
function scan(index: SchemaIndex, text: string) {
  const stack: Frame[] = [];
  let last = ''; // the previous significant token
  let field: Field | null = null; // the field just named in a selection set
  let on: string | null = null; // the type of `on T` (fragment, inline fragment)
  let argName = ''; // in an argument list or input object: the name before the last `:`
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m && m[0] !== ''; m = TOKEN.exec(text)) {
    const t = m[0];
    if (/^[\s,]/.test(t) || t.startsWith('#')) continue;
    const top = stack[stack.length - 1];
    if (t === '{') {
      if (!top) stack.push({ kind: 'select', type: on ?? index.query });
      else if (top.kind === 'select') stack.push({ kind: 'select', type: on ?? named(field?.type ?? NO_TYPE) });
      else stack.push({ kind: 'value', type: inputType(index, top, argName) });
      on = null;
    } else if (t === '(') stack.push({ kind: 'args', field: top?.kind === 'select' ? field : null });
    else if (t === '}' || t === ')') stack.pop();
    else if (t === ':' && top && top.kind !== 'select') argName = last;
    else if (/^[_A-Za-z]/.test(t) && last === 'on') on = t;
    else if (/^[_A-Za-z]/.test(t) && top?.kind === 'select' && last !== '...' && last !== '$' && last !== '@')
      field = fieldOf(index, top.type, t);
    last = t;
  }
  return { frame: stack[stack.length - 1] as Frame | undefined, last };
}

const NO_TYPE: TypeRef = { kind: 'SCALAR', name: null };

/** The input object type a `{` in an argument list opens: the argument's or the input field's type. */
function inputType(index: SchemaIndex, top: Frame, name: string): string | null {
  const args =
    top.kind === 'args'
      ? (top.field?.args ?? [])
      : top.kind === 'value'
        ? index.types.get(top.type ?? '')?.inputFields
        : [];
  const arg = args?.find((a) => a.name === name);
  return arg ? named(arg.type) : null;
}

const TYPENAME: Item = { label: '__typename', detail: 'String!' };

export function completeAt(index: SchemaIndex, text: string, cursor: number): Completion {
  const before = text.slice(0, cursor);
  const word = /[_A-Za-z][_0-9A-Za-z]*$/.exec(before)?.[0] ?? '';
  const from = cursor - word.length;
  const { frame, last } = scan(index, before.slice(0, from));
  let items: Item[] = [];
  if (!frame) items = ['query', 'fragment'].map((k) => ({ label: k, detail: 'keyword' }));
  else if (frame.kind === 'select' && last !== 'on' && last !== '...') {
    const fields = index.types.get(frame.type ?? '')?.fields;
    if (fields) items = [...fields.map((f) => ({ label: f.name, detail: typeText(f.type) })), TYPENAME];
  } else if (frame.kind === 'args' && last !== ':') {
    items = (frame.field?.args ?? []).map((a) => ({ label: a.name, detail: typeText(a.type) }));
  } else if (frame.kind === 'value' && last !== ':') {
    const fields = index.types.get(frame.type ?? '')?.inputFields ?? [];
    items = fields.map((a) => ({ label: a.name, detail: typeText(a.type) }));
  }
  const w = word.toLowerCase();
  return { from, items: items.filter((i) => i.label.toLowerCase().startsWith(w)) };
}
