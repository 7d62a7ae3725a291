// Rows typed from the resource definitions: a definition declared `as const satisfies ResourceDef`
// gives RowOf<typeof def>, whose fields have the types their kinds hold in a stored row. Fields
// spread in from shared lists (id, created, ...) keep the Row's own typing.
import type { FieldKind } from './types.js';

/** What a field of each kind holds in a stored row (before serialization). */
interface KindValue {
  uuid: string;
  string: string;
  slug: string;
  integer: number;
  boolean: boolean;
  choice: string;
  fk: string;
  tags: string[];
  custom_fields: Record<string, unknown>;
  prefix: string;
  address: string;
  ip: string;
  mac: string;
  datetime: string;
  json: unknown;
  string_list: string[];
}

/** A field's name when the definition spells it (not a spread list's `string`). */
type NameOf<F> = F extends { readonly name: infer N extends string } ? (string extends N ? never : N) : never;

/** A field the server always sets (required, or read-only and written by the service) is never null. */
type ValueOf<F> = F extends { readonly kind: infer K extends FieldKind }
  ? F extends { readonly required: true } | { readonly readOnly: true }
    ? Held<F, K>
    : Held<F, K> | null
  : never;

/** A json field declared `jsonObject` holds an object; any other field what its kind holds. */
type Held<F, K extends FieldKind> = F extends { readonly jsonObject: true } ? Record<string, unknown> : KindValue[K];

/** A stored row of a resource whose definition is literal (`as const satisfies ResourceDef`). */
export type RowOf<R extends { readonly fields: readonly unknown[] }> = { readonly id: string } & Record<
  string,
  unknown
> & { readonly [F in R['fields'][number] as NameOf<F>]: ValueOf<F> };

/**
 * A stored row of `def`, typed as its definition says. The store holds only rows written through
 * the definition's validation (or the service's own writes of them), so the fields are what it declares.
 */
export function rowAs<R extends { readonly fields: readonly unknown[] }>(
  _def: R,
  row: { readonly id: string } & Record<string, unknown>,
): RowOf<R> {
  return row as RowOf<R>;
}
