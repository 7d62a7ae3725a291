// A store's id style: UUIDs (Nautobot's, the default) or integers (NetBox's), chosen when the store
// is created and kept in it. Inside the product an id is always text (the canonical form below);
// the style says which text is an id, how ids order, and what JSON carries them. Resources marked
// `uuidIds` (bookkeeping rows no NetBox client reads by id) keep UUIDs in either style.
import { normalizeUuid, UUID_RE } from './normalize.js';
import type { FieldDef, ResourceDef } from './types.js';

export type IdStyleName = 'uuid' | 'integer';
export const ID_STYLES: readonly IdStyleName[] = ['uuid', 'integer'];

export interface IdStyle {
  readonly name: IdStyleName;
  /** An id as a client writes it in a path, a filter or a query parameter -> its canonical text, or null. */
  parse(text: string): string | null;
  /** An id in a JSON body (`"site": 17`, `{"id": 17}`) -> its canonical text, or null when it is not one. */
  fromJson(v: unknown): string | null;
  /** The JSON value answers carry for an id. */
  toJson(id: string): string | number;
  /** Whether a plain reference's text names an object by id (else it is a slug or name). An integer
   * store never reads a plain reference as an id (NetBox: `site=17` is a slug; ids go through `site_id`). */
  refIsId(text: string): boolean;
  /** Two ids in the store's order (cursor pages, the default tie-break). */
  compare(a: string, b: string): number;
  /** Why `text` is not an id (a filter's 400). */
  invalid(text: string): string;
  /** The OpenAPI schema of an id. */
  readonly schema: { readonly type: 'string'; readonly format: 'uuid' } | { readonly type: 'integer' };
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export const UUID_IDS: IdStyle = {
  name: 'uuid',
  parse: normalizeUuid,
  fromJson: (v) => (typeof v === 'string' ? normalizeUuid(v) : null),
  toJson: (id) => id,
  refIsId: (text) => UUID_RE.test(text),
  compare: byText,
  invalid: (text) => `"${text}" is not a valid UUID.`,
  schema: { type: 'string', format: 'uuid' },
};

/** Positive integers up to 2^53 - 1 (what a JSON number carries exactly), in decimal without leading zeros. */
const INTEGER_ID = /^[1-9][0-9]{0,15}$/;
const integerId = (text: string): string | null =>
  INTEGER_ID.test(text) && Number(text) <= Number.MAX_SAFE_INTEGER ? text : null;

export const INTEGER_IDS: IdStyle = {
  name: 'integer',
  parse: (text) => integerId(text.trim()),
  // DRF's PrimaryKeyRelatedField takes "17" as well as 17.
  fromJson: (v) =>
    typeof v === 'number'
      ? Number.isSafeInteger(v) && v > 0
        ? String(v)
        : null
      : typeof v === 'string'
        ? integerId(v)
        : null,
  toJson: (id) => Number(id),
  refIsId: () => false,
  compare: (a, b) => a.length - b.length || byText(a, b),
  invalid: (text) => `"${text}" is not a valid integer id.`,
  schema: { type: 'integer' },
};

export const ID_STYLE: Readonly<Record<IdStyleName, IdStyle>> = { uuid: UUID_IDS, integer: INTEGER_IDS };

/** The style of a resource's ids in a store of style `store`. */
export const idStyleOf = (r: ResourceDef, store: IdStyle): IdStyle => (r.uuidIds ? UUID_IDS : store);

/** The resource whose id a field holds (`id` itself, or an fk's target), or null for any other field. */
export const idSpaceOf = (r: ResourceDef, f: FieldDef): string | null =>
  f.kind === 'uuid' ? r.name : f.kind === 'fk' ? f.target! : null;
