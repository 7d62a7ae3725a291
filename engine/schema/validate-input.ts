// Write validation derived from the registry: body -> normalised field values, or errors keyed by
// field. Pure: references (foreign keys, tags) are returned for the caller to check against storage.
import { formatCidr, parseCidr } from '../net/ip.js';
import { MSG } from './messages.js';
import { normalizeMac, SLUG_RE, toBoolean, toInteger } from './normalize.js';
import type { CustomFieldDef, FieldDef, ResourceDef } from './types.js';
import { validateCustomFieldData } from './custom-field-values.js';
import { servedNames } from './served-names.js';
import { idStyleOf, UUID_IDS, type IdStyle } from './id-style.js';
import { resource } from './registry.js';
import { allGenericKeys } from './generic-refs.js';
import { genericInput } from './generic-input.js';

export type FieldErrors = Record<string, string[]>;
/** A value a nested reference names its object by. */
export type RefValue = string | number | boolean;

export interface ValidInput {
  readonly values: Record<string, unknown>; // writable fields given (or defaulted on create), normalised
  readonly tagRefs: readonly string[] | null; // slugs or ids as given, null when `tags` absent
  /**
   * PATCH's partial tag edits (`add_tags`, `remove_tags`): refs as given, applied to the tags the row
   * has when written.
   */
  readonly tagEdits: { readonly add: readonly string[]; readonly remove: readonly string[] } | null;
  /**
   * References given as an object of the target's fields (`{"slug": "ams01"}`), by field: the caller
   * looks them up.
   */
  readonly refQueries: Readonly<Record<string, Readonly<Record<string, RefValue>>>>;
  /** Fks set by a generic reference (`assigned_object_id`), by fk: the key a missing object is reported under. */
  readonly reportedAs?: Readonly<Record<string, string>>;
}

export type InputResult = { ok: true; input: ValidInput } | { ok: false; errors: FieldErrors };

function add(errors: FieldErrors, field: string, msg: string): void {
  (errors[field] ??= []).push(msg);
}

type Check = { ok: true; value: unknown } | { ok: false; message: string };
const ok = (value: unknown): Check => ({ ok: true, value });
const bad = (message: string): Check => ({ ok: false, message });

/** Kinds whose value is one scalar: an object or a list there gets NetBox's explicit message. */
const SCALAR_KINDS: ReadonlySet<FieldDef['kind']> = new Set([
  'string',
  'slug',
  'integer',
  'boolean',
  'choice',
  'prefix',
  'address',
  'mac',
]);

/** One field's value, by kind. */
function checkValue(f: FieldDef, v: unknown): Check {
  if (v === null) return f.nullable ? ok(null) : bad(MSG.notNull);
  if (typeof v === 'object' && SCALAR_KINDS.has(f.kind)) return bad(MSG.notScalar);
  switch (f.kind) {
    case 'string':
    case 'slug': {
      if (typeof v !== 'string') return bad(MSG.string);
      if (f.maxLength !== undefined && v.length > f.maxLength) return bad(MSG.maxLength(f.maxLength));
      if (f.required && v === '') return bad(MSG.notBlank);
      if (f.kind === 'slug' && !SLUG_RE.test(v)) return bad(MSG.slug);
      if (f.pattern && v !== '' && !new RegExp(f.pattern).test(v)) return bad(MSG.pattern(f.pattern));
      return ok(v);
    }
    case 'integer': {
      const n = toInteger(v);
      if (n === null) return bad(MSG.integer);
      if (f.min !== undefined && n < f.min) return bad(MSG.min(f.min));
      if (f.max !== undefined && n > f.max) return bad(MSG.max(f.max));
      return ok(n);
    }
    case 'boolean': {
      const b = toBoolean(v);
      return b === null ? bad(MSG.boolean) : ok(b);
    }
    case 'choice':
      return typeof v === 'string' && f.choices!.some((c) => c.value === v) ? ok(v) : bad(MSG.choice(String(v)));
    case 'fk':
      return fkValue(f, v, UUID_IDS);
    case 'prefix': {
      if (typeof v !== 'string') return bad(MSG.prefix(String(v)));
      const c = parseCidr(v.trim(), { requireLength: true });
      if (!c) return bad(MSG.prefix(v));
      const canonical = formatCidr(c.family, c.network, c.length);
      if (c.hostBitsSet) return bad(MSG.hostBits(v, canonical));
      return ok(canonical);
    }
    case 'address': {
      if (typeof v !== 'string') return bad(MSG.address(String(v)));
      const c = parseCidr(v.trim());
      return c ? ok(formatCidr(c.family, c.host, c.length)) : bad(MSG.address(v));
    }
    case 'mac': {
      if (typeof v !== 'string') return bad(MSG.mac(String(v)));
      if (v === '') return f.nullable ? ok(null) : bad(MSG.mac(v));
      const m = normalizeMac(v);
      return m ? ok(m) : bad(MSG.mac(v));
    }
    case 'string_list':
      return Array.isArray(v) && v.every((x) => typeof x === 'string') ? ok([...v]) : bad(MSG.list);
    case 'json':
      return ok(v);
    case 'tags':
    case 'custom_fields':
    case 'uuid':
    case 'ip':
    case 'datetime':
      return ok(v); // handled by the caller or read-only
  }
}

/** An fk's value: an id of the target, or a nested object carrying one (what clients read back). */
function fkValue(f: FieldDef, v: unknown, store: IdStyle): Check {
  const id = typeof v === 'object' && v !== null && 'id' in v ? (v as { id: unknown }).id : v;
  const got = idStyleOf(resource(f.target!), store).fromJson(id);
  return got !== null ? ok(got) : bad(MSG.fkNotFound(String(typeof id === 'object' ? JSON.stringify(id) : id)));
}

const TAG_EDITS = ['add_tags', 'remove_tags'];

/** A list of tags as slugs, names, ids or objects carrying one; null (with errors) when it is not one. */
function tagRefsOf(v: unknown, field: string, errors: FieldErrors, store: IdStyle): string[] | null {
  if (!Array.isArray(v)) {
    add(errors, field, MSG.list);
    return null;
  }
  const refs: string[] = [];
  for (const t of v) {
    const ref =
      typeof t === 'object' && t !== null
        ? ((t as Record<string, unknown>).id ??
          (t as Record<string, unknown>).slug ??
          (t as Record<string, unknown>).name)
        : t;
    // A number is a tag id in an integer store.
    const id = typeof ref === 'number' ? idStyleOf(resource('tag'), store).fromJson(ref) : null;
    if (id !== null) refs.push(id);
    else if (typeof ref !== 'string') add(errors, field, MSG.tagNotFound(JSON.stringify(t)));
    else refs.push(ref);
  }
  return refs;
}

/** A reference written NetBox's other way: an object of the target's fields, without an id. */
const isRefQuery = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !Object.prototype.hasOwnProperty.call(v, 'id');

function defaultFor(f: FieldDef): unknown {
  if (f.default !== undefined) return Array.isArray(f.default) ? [...f.default] : f.default;
  if (f.nullable) return null;
  if (f.kind === 'string') return '';
  return undefined;
}

/** Each resource's fields by name, made once (a bulk create validates a thousand bodies of one resource). */
interface FieldsOf {
  /** By name, and by alias (an alias maps to its field). */
  readonly byName: ReadonlyMap<string, FieldDef>;
  readonly taggable: boolean;
  /** Keys answers carry that are not fields (related counts, fields served as null, generic references: those
   * are read by genericInput): ignored here. */
  readonly servedOnly: ReadonlySet<string>;
}
const FIELDS = new WeakMap<ResourceDef, FieldsOf>();
function fieldsOf(r: ResourceDef): FieldsOf {
  let got = FIELDS.get(r);
  if (!got)
    FIELDS.set(
      r,
      (got = {
        byName: new Map(r.fields.flatMap((f) => servedNames(f).map((n) => [n, f] as const))),
        taggable: r.fields.some((f) => f.kind === 'tags'),
        servedOnly: new Set([
          ...[...(r.counts ?? []), ...(r.servedNull ?? [])].map((c) => c.name),
          ...allGenericKeys(r),
        ]),
      }),
    );
  return got;
}

/** The value a body gives a field: under its name, else under its alias (the name wins when both are given). */
function givenValue(f: FieldDef, data: Record<string, unknown>): { given: boolean; value?: unknown } {
  const has = (k: string) => Object.prototype.hasOwnProperty.call(data, k);
  if (has(f.name)) return { given: true, value: data[f.name] };
  if (f.alias && has(f.alias)) return { given: true, value: data[f.alias] };
  return { given: false };
}

/**
 * Validate a create (`existing` null) or an update (`existing` the stored values; `partial` for PATCH).
 * Read-only fields in the body are ignored, as REST framework does; unknown fields are errors.
 */
export function validateInput(r: ResourceDef, body: unknown, opts: InputOptions): InputResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    const got = Array.isArray(body) ? 'list' : body === null ? 'null' : typeof body;
    return { ok: false, errors: { non_field_errors: [`Invalid data. Expected a dictionary, but got ${got}.`] } };
  }
  const data = body as Record<string, unknown>;
  const errors: FieldErrors = Object.create(null); // keys may be user-given field names
  const { byName, taggable, servedOnly } = fieldsOf(r);
  for (const key of Object.keys(data)) {
    // What reads return beside the fields (a client writing back what it read): ignored.
    if (byName.has(key) || key === 'url' || key === 'display' || servedOnly.has(key)) continue;
    if (taggable && TAG_EDITS.includes(key)) {
      if (!opts.partial) add(errors, key, MSG.tagEditsPatchOnly);
      continue;
    }
    add(errors, key, MSG.unknownField);
  }
  let tagEdits: { add: string[]; remove: string[] } | null = null;
  if (taggable && opts.partial && TAG_EDITS.some((k) => k in data)) {
    if ('tags' in data) add(errors, 'tags', MSG.tagsWithEdits);
    const add_ = tagRefsOf(data.add_tags ?? [], 'add_tags', errors, opts.ids ?? UUID_IDS),
      remove = tagRefsOf(data.remove_tags ?? [], 'remove_tags', errors, opts.ids ?? UUID_IDS);
    if (add_ && remove) tagEdits = { add: add_, remove };
  }
  const out: Collected = { values: {}, tagRefs: null, refQueries: Object.create(null), errors };
  for (const f of r.fields) {
    if (f.readOnly || (f.hidden && !f.writeOnly)) continue;
    const g = givenValue(f, data);
    if (g.given) givenField(f, g.value, opts, out);
    else if (!opts.partial) absentField(f, opts, out);
  }
  const checkFk = (f: FieldDef, v: unknown) => (v === null ? checkValue(f, v) : fkValue(f, v, opts.ids ?? UUID_IDS));
  const reportedAs = genericInput(r, data, opts.existing, checkFk, out);
  const { values, tagRefs, refQueries } = out;
  return Object.keys(errors).length
    ? { ok: false, errors }
    : { ok: true, input: { values, tagRefs, tagEdits, refQueries, reportedAs } };
}

export interface InputOptions {
  partial: boolean;
  creating: boolean;
  customFields: readonly CustomFieldDef[];
  existingCustomFields?: Record<string, unknown>;
  /** The stored row, on an update: a generic reference's half left out of the body is taken from it. */
  existing?: Readonly<Record<string, unknown>>;
  /** The store's id style: which values of a reference are ids (default UUIDs). */
  ids?: IdStyle;
}

/** What the fields of a body add up to, filled field by field. */
interface Collected {
  readonly values: Record<string, unknown>;
  tagRefs: string[] | null;
  readonly refQueries: Record<string, Record<string, RefValue>>;
  readonly errors: FieldErrors;
}

/** A writable field the body leaves out (not in a PATCH): required, defaulted, or left alone. */
function absentField(f: FieldDef, opts: InputOptions, out: Collected): void {
  const { values, errors } = out;
  if (f.required) {
    add(errors, f.name, MSG.required);
    return;
  }
  if (f.kind === 'tags') {
    if (opts.creating) out.tagRefs = [];
    return;
  }
  if (f.kind === 'custom_fields') {
    const cf = validateCustomFieldData(opts.customFields, {}, opts.creating, undefined);
    if (!cf.ok) for (const m of cf.errors) add(errors, f.name, m);
    else values[f.name] = cf.value;
    return;
  }
  if (opts.creating) {
    const d = defaultFor(f);
    if (d !== undefined) values[f.name] = d;
  }
}

/** A writable field the body gives: a reference query, tags, custom fields, or a checked value. */
function givenField(f: FieldDef, v: unknown, opts: InputOptions, out: Collected): void {
  const { values, errors } = out;
  if (f.kind === 'fk' && isRefQuery(v)) {
    const attrs = Object.entries(v);
    if (attrs.length === 0 || !attrs.every(([, x]) => ['string', 'number', 'boolean'].includes(typeof x)))
      add(errors, f.name, MSG.refQueryShape);
    else out.refQueries[f.name] = v as Record<string, RefValue>;
    return;
  }
  if (f.kind === 'tags') {
    out.tagRefs = tagRefsOf(v, f.name, errors, opts.ids ?? UUID_IDS);
    return;
  }
  if (f.kind === 'custom_fields') {
    const cf = validateCustomFieldData(opts.customFields, v, opts.creating, opts.existingCustomFields);
    if (!cf.ok) for (const m of cf.errors) add(errors, f.name, m);
    else values[f.name] = cf.value;
    return;
  }
  const c = f.kind === 'fk' && v !== null ? fkValue(f, v, opts.ids ?? UUID_IDS) : checkValue(f, v);
  if (c.ok) values[f.name] = c.value;
  else add(errors, f.name, c.message);
}
