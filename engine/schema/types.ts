// Types of the schema registry: every resource is described once, as data.
// Filters, validation, serializers, OPTIONS, DDL and OpenAPI are derived from these records.

export type FieldKind =
  | 'uuid' // server-assigned id
  | 'string' // free text
  | 'slug' // ^[-a-zA-Z0-9_]+$
  | 'integer'
  | 'boolean'
  | 'choice' // one of `choices`
  | 'fk' // id of another resource (`target`)
  | 'tags' // many-to-many to tags
  | 'custom_fields' // object keyed by custom field name
  | 'prefix' // writable CIDR, host bits must be clear
  | 'address' // writable host/len
  | 'ip' // read-only bare address text derived from a prefix or address
  | 'mac' // MAC address, stored upper-case colon form
  | 'datetime' // ISO 8601, UTC
  | 'json'
  | 'string_list'; // list of strings

export interface Choice {
  readonly value: string;
  readonly display: string;
}

export type OnDelete = 'cascade' | 'set_null' | 'protect';

export interface FieldDef {
  readonly name: string;
  readonly kind: FieldKind;
  readonly label: string;
  readonly required?: boolean;
  readonly readOnly?: boolean;
  readonly nullable?: boolean;
  readonly maxLength?: number;
  readonly min?: number;
  readonly max?: number;
  readonly pattern?: string;
  readonly choices?: readonly Choice[];
  readonly target?: string; // resource name, for fk
  readonly onDelete?: OnDelete; // for fk
  readonly unique?: boolean;
  readonly default?: unknown;
  readonly search?: boolean; // included in `q`
  readonly filter?: false; // no filter generated
  readonly hidden?: boolean; // never serialized (e.g. token key hash)
  readonly writeOnly?: true; // with hidden: accepted when written, never read back nor logged (a webhook's secret)
  readonly netRole?: 'network' | 'host'; // the network-lookup field of prefixes / addresses
  readonly netPart?: 'broadcast' | 'length' | 'family'; // another read-only part derived from the prefix / address
  readonly indexed?: true; // a B-tree index of its own in SQL (a field lists are often filtered by)
  readonly sequence?: true; // numbered by the store, gap-free in commit order (the change log's `seq`)
  readonly jsonObject?: true; // a json field that only ever holds an object (its typed row says so)
  /** An fk to a resource listed later in the registry, closing a cycle (a device's primary IP is an
   * address on one of its own interfaces): its SQL constraint is added once both tables exist, a
   * copy fills it in a second pass, and relation filters do not follow it. */
  readonly deferred?: true;
  /** The name of this fk's filter on resources that reach it through a reference: a site's `group`
   * is `site_group` on devices (NetBox's names). Defaults to the field's name. */
  readonly relationName?: string;
  /** The target serves how many rows refer to it through this fk (a related count, see CountDef),
   * named `<resource>_count` (underscores dropped) or as given. */
  readonly counted?: true | string;
  /** The field's older name, still taken beside it (NetBox 3.6 renamed a device's `device_role` to `role`
   * and kept the old name through 3.7): a write may give it instead (the field's own name wins when both
   * are given), it filters like the field (`device_role`, `device_role_id`), and answers serve it
   * beside the field with the same value. */
  readonly alias?: string;
  /** The field holds the id (a string field) or the stored data (a json field) of the object whose
   * content type the named field holds (a change record's): answers carry its ids in the store's style. */
  readonly objectOf?: string;
}

/**
 * A related count (NetBox's `device_count`, `prefix_count`, ...): how many rows of `resource` refer
 * to the object through the fk `field`. Read-only, never stored: a page's counts come from the
 * store's index on that fk (Storage.countRefs), one lookup per count and page.
 */
export interface CountDef {
  readonly name: string;
  readonly label: string;
  readonly resource: string;
  readonly field: string;
}

export interface ResourceDef {
  readonly name: string; // 'site'
  readonly app: string; // 'dcim'
  readonly plural: string; // 'sites' (path segment)
  readonly label: string; // 'Site'
  readonly description: string;
  readonly fields: readonly FieldDef[];
  readonly uniqueTogether?: readonly (readonly string[])[];
  readonly refField: string; // text form accepted for foreign-key filters (slug, else name)
  readonly displayField: string; // field shown as `display`
  readonly tree?: string; // name of the self-referencing parent field: filters match descendants
  /** Read-only fields computed from writable ones. */
  readonly derive?: (row: Record<string, unknown>) => Record<string, unknown>;
  readonly inventory?: false; // not a public inventory list endpoint (tokens)
  readonly writable?: false; // listed and read over the API, never written through it (the change log)
  readonly logged?: false; // writes of it leave no change record (the log itself, bookkeeping rows)
  readonly alsoAt?: readonly string[]; // further list paths serving the same endpoint
  /** When a list names no ordering. */
  readonly defaultOrder?: readonly { readonly field: string; readonly desc: boolean }[];
  /** Related counts served with each object (read-only, not stored): derived by the registry from the
   * references marked `counted`, never declared on the resource counted. */
  readonly counts?: readonly CountDef[];
  /** Fk fields whose brief form the brief form carries (NetBox: a device type's manufacturer). */
  readonly briefNests?: readonly string[];
  /** NetBox fields the product has no object for, served as null so clients that read them find them
   * (a device's `virtual_chassis`): read-only, never stored, ignored when written back. */
  readonly servedNull?: readonly { readonly name: string; readonly label: string }[];
  /** NetBox's generic references (a GenericForeignKey) over fks the resource has: `<name>_type` (the content
   * type of the set fk's target, or null), `<name>_id` (the fk's value) and `<name>` (the object's brief form)
   * are served from whichever of `fields` is set, and a write of `<name>_type` + `<name>_id` sets that fk and
   * clears the others (engine/schema/generic-refs.ts). An IP address's `assigned_object`. */
  readonly generic?: readonly { readonly name: string; readonly label: string; readonly fields: readonly string[] }[];
  /** Its ids are UUIDs whatever the store's id style (engine/schema/id-style.ts): bookkeeping rows no
   * NetBox client reads by id (lifecycle records, idempotency keys, the change log, deliveries). */
  readonly uuidIds?: true;
}

export interface CustomFieldDef {
  readonly id: string;
  readonly name: string;
  readonly label: string;
  readonly type: CustomFieldType;
  readonly filter_logic: 'loose' | 'exact' | 'disabled';
  readonly content_types: readonly string[];
  readonly choices: readonly string[];
  readonly required: boolean;
  readonly default: unknown;
}

export type CustomFieldType = 'text' | 'integer' | 'boolean' | 'date' | 'url' | 'select' | 'multi-select' | 'json';
export const CUSTOM_FIELD_TYPES: readonly CustomFieldType[] = [
  'text',
  'integer',
  'boolean',
  'date',
  'url',
  'select',
  'multi-select',
  'json',
];
