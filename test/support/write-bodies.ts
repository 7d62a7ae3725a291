// Write bodies of an inventory resource, good and bad, for comparing the OpenAPI write schemas with
// the registry's validateInput (test/server/openapi*.test.ts), in either id style: references are
// UUIDs in a uuid store and numbers (or their decimal text) in an integer one.
import { randomUUID } from 'node:crypto';
import { idStyleOf, type IdStyle } from '../../engine/schema/id-style.js';
import { resource } from '../../engine/schema/registry.js';
import type { FieldDef, ResourceDef } from '../../engine/schema/types.js';

const candidates = ['x', 'abcdef', 'a1'];
const integerTarget = (f: FieldDef, ids: IdStyle) => idStyleOf(resource(f.target!), ids).name === 'integer';
const someId = (f: FieldDef, ids: IdStyle): unknown => (integerTarget(f, ids) ? 17 : randomUUID());

function sample(f: FieldDef, ids: IdStyle): unknown {
  switch (f.kind) {
    case 'string':
      return candidates.find((c) => !f.pattern || new RegExp(f.pattern).test(c));
    case 'slug':
      return 'x-1';
    case 'integer':
      return f.min ?? 1;
    case 'boolean':
      return true;
    case 'choice':
      return f.choices![0].value;
    case 'fk':
      return someId(f, ids);
    case 'tags':
      return ['core'];
    case 'custom_fields':
      return {};
    case 'prefix':
      return '10.0.0.0/24';
    case 'address':
      return '10.0.0.1/24';
    case 'mac':
      return 'aa:bb:cc:00:11:22';
    case 'string_list':
      return ['dcim.site'];
    case 'json':
      return f.nullable ? null : {};
    default:
      return undefined;
  }
}

/** The references a body may give: a uuid store's, or an integer store's (numbers, their text, bad ones). */
function referenceCases(f: FieldDef, ids: IdStyle, w: (what: string, v: unknown) => void): void {
  w('nested {id}', { id: someId(f, ids) });
  w('not an id', 'abc');
  w('object without id', { slug: 'x' });
  if (integerTarget(f, ids)) {
    w('id as decimal text', '17');
    w('nested {id} as text', { id: '17' });
    w('a uuid', randomUUID());
    w('zero', 0);
    w('negative', -3);
    w('fractional', 1.5);
    w('leading zero text', '017');
  } else w('a number', 17);
}

function tagCases(ids: IdStyle, w: (what: string, v: unknown) => void): void {
  const integer = idStyleOf(resource('tag'), ids).name === 'integer';
  w('objects', [{ slug: 'core' }, { id: integer ? 3 : randomUUID() }]);
  w('not a list', 'core');
  if (integer) {
    w('ids', [3, 4]);
    w('id zero', [0]);
    w('fractional id', [1.5]);
    w('object with id zero', [{ id: 0 }]);
  } else w('a number item', [5]);
}

/** Bodies with what validate-input should say about them. */
export function writeCases(r: ResourceDef, ids: IdStyle): [string, Record<string, unknown>][] {
  const writable = r.fields.filter((f) => !f.readOnly && !f.hidden);
  const base = Object.fromEntries(writable.map((f) => [f.name, sample(f, ids)]));
  const out: [string, Record<string, unknown>][] = [
    ['every field', base],
    ['read-only keys are ignored', { ...base, id: 'x', url: 'u', display: 'd', created: 1 }],
    ['unknown key', { ...base, bogus: 1 }],
  ];
  for (const f of writable) {
    const w = (what: string, v: unknown) => out.push([`${f.name}: ${what}`, { ...base, [f.name]: v }]);
    if (f.required) {
      const { [f.name]: _, ...rest } = base;
      out.push([`${f.name}: missing`, rest]);
    }
    w('null', null);
    if (f.kind === 'string' || f.kind === 'slug') {
      w('a number', 5);
      w('empty', '');
      if (f.maxLength) w('too long', 'a'.repeat(f.maxLength + 1));
    }
    if (f.kind === 'slug') w('with a space', 'a b');
    if (f.kind === 'integer') {
      w('as text', String(f.min ?? 1));
      w('not a number', 'abc');
      w('fractional', 1.5);
      if (f.max !== undefined) w('above max', f.max + 1);
    }
    if (f.kind === 'boolean') {
      w('yes', 'yes');
      w('1', 1);
      w('maybe', 'maybe');
    }
    if (f.kind === 'choice') w('unknown choice', 'nope');
    if (f.kind === 'fk') referenceCases(f, ids, w);
    if (f.kind === 'tags') tagCases(ids, w);
    if (f.kind === 'custom_fields') w('not an object', 5);
    if (f.kind === 'mac') {
      w('dashes', 'aa-bb-cc-00-11-22');
      w('dotted', 'aabb.cc00.1122');
      w('bad', 'zz:zz');
      w('empty', '');
    }
    if (f.kind === 'string_list') {
      w('not a list', 'x');
      w('a number item', [1]);
    }
  }
  return out;
}
