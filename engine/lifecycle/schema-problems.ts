// ajv's errors against the machine schema (machine-schema.ts) as problems: where, a dotted path from
// the definition's root ("states[2].name"), and what, in words drawn from the schema that refused it.
import type { ErrorObject } from 'ajv/dist/2020.js';
import { renderValue } from './json.js';
import { TRANSITIONS_PER_STATE, type JsonSchema } from './machine-schema.js';

/** `base` and a JSON pointer under it ("/guards/1") as one path; "(root)" for the root itself. */
export function location(base: string, pointer: string, key?: string): string {
  const segments = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (key !== undefined) segments.push(key);
  const path = segments.reduce(
    (out, s) => (/^(0|[1-9][0-9]*)$/.test(s) ? `${out}[${s}]` : out ? `${out}.${s}` : s),
    base,
  );
  return path || '(root)';
}

const listing = (items: readonly unknown[]): string =>
  items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}` : items.join('');

/** What a schema asks for, in words ("an object with name and type", "a non-empty list"). */
function expected(s: JsonSchema | undefined, schemas: Readonly<Record<string, JsonSchema>>): string {
  if (typeof s?.$ref === 'string') return expected(schemas[s.$ref.slice(s.$ref.lastIndexOf('/') + 1)], schemas);
  if (!s?.type) return 'a value';
  if (Array.isArray(s.enum)) return `one of ${s.enum.join(', ')}`;
  if (s.format === 'semver') return 'a semantic version MAJOR.MINOR.PATCH[-pre-release][+build]';
  return [s.type]
    .flat()
    .map((t) => {
      if (t === 'object') return `an object${Array.isArray(s.required) ? ` with ${listing(s.required)}` : ''}`;
      if (t === 'array') return s.minItems ? 'a non-empty list' : 'a list';
      if (t === 'string' && s.pattern) return `a string matching ${s.pattern}`;
      return `a ${t}`;
    })
    .join(' or ');
}

/** The setting behind each maxItems of the schema. */
const LIMIT_NAMES: Record<string, string> = {
  states: 'MAX_MACHINE_STATES',
  transitions: `${TRANSITIONS_PER_STATE} × MAX_MACHINE_STATES`,
};

function problemOf(e: ErrorObject, schemas: Readonly<Record<string, JsonSchema>>, base: string): [string, string] {
  const at = location(base, e.instancePath);
  const schema = e.parentSchema as JsonSchema;
  const got = () => `got ${renderValue(e.data)}`;
  const key = e.instancePath.slice(e.instancePath.lastIndexOf('/') + 1);
  switch (e.keyword) {
    case 'required': {
      const missing = e.params.missingProperty as string;
      const wanted = expected((schema.properties as Record<string, JsonSchema>)[missing], schemas);
      return [location(base, e.instancePath, missing), `required (${wanted})`];
    }
    case 'additionalProperties': {
      const known = Object.keys(schema.properties as object).join(', ');
      const what = e.instancePath || base ? 'key' : 'top-level key';
      return [location(base, e.instancePath, e.params.additionalProperty), `unknown ${what} (known: ${known})`];
    }
    case 'maxLength':
      return [at, `must be at most ${e.params.limit} characters, got ${(e.data as string).length}`];
    case 'maxItems':
      return [at, `at most ${e.params.limit} ${key} (${LIMIT_NAMES[key]}), got ${(e.data as unknown[]).length}`];
    case 'minItems':
      return [at, 'must be a non-empty list'];
    case 'minLength':
      return [at, 'must not be empty'];
    case 'pattern':
      return [at, `must match ${e.params.pattern}, ${got()}`];
    case 'enum':
      return [at, `unknown ${key} ${renderValue(e.data)} (expected ${expected(schema, schemas)})`];
    case 'uniqueItems': {
      const [first, again] = [e.params.i, e.params.j].sort((a: number, b: number) => a - b);
      return [`${at}[${again}]`, `duplicate ${renderValue((e.data as unknown[])[again])} (also ${at}[${first}])`];
    }
    case 'type':
    case 'format':
      return [at, `must be ${expected(schema, schemas)}, ${got()}`];
    default:
      return [at, e.message ?? 'is invalid'];
  }
}

/** Each error as [where, what]; `base` is where the checked value is in the definition. */
export function schemaProblems(
  errors: readonly ErrorObject[],
  schemas: Readonly<Record<string, JsonSchema>>,
  base = '',
): [string, string][] {
  return errors.map((e) => problemOf(e, schemas, base));
}
