// The values a column alone does not give (mapping.ts `Special`): what each reads from the source
// (its SELECT expressions, over the table aliased `t`, for a database; a row reader's rows carry the same
// columns and `__` values, row-import-source.ts), what it needs to exist there, and how it
// makes the product's value. A value the product cannot hold is `lost`, with the reason the report gives.
import type { Special } from './mapping.js';
import { CF_TYPES, SUPPORT_TABLES } from './mapping.js';
import type { ImportSource, SourceRow } from './source.js';

export type Read = { readonly value: unknown } | { readonly lost: string; readonly value: unknown };

export interface SpecialDef {
  /** The columns of the table it reads (all must exist for it to be chosen). */
  readonly needs: readonly string[];
  /** SELECT expressions, each aliased `__<special>`... */
  select(src: ImportSource): string;
  read(row: SourceRow, src: ImportSource): Read;
  /** The name the report gives what it leaves (`ipam_prefix.scope`); null: it never loses a value. */
  readonly reportAs: string | null;
}

const ASSIGNABLE = ['dcim.interface', 'virtualization.vminterface'];

function assigned(ct: string, reportLoss: boolean): SpecialDef {
  return {
    needs: ['assigned_object_type_id', 'assigned_object_id'],
    select: () => 't.assigned_object_type_id, t.assigned_object_id',
    read(row, src) {
      const at = row.assigned_object_type_id;
      if (at === null || at === undefined) return { value: null };
      const type = src.contentTypes.get(Number(at)) ?? String(at);
      if (type === ct) return { value: String(row.assigned_object_id) };
      return reportLoss && !ASSIGNABLE.includes(type) ? { lost: `assigned to ${type}`, value: null } : { value: null };
    },
    reportAs: reportLoss ? 'assigned_object' : null,
  };
}

/** The object types table of this layout and its column (4.0 renamed content types to object types). */
function cfTypesTable(src: ImportSource): { table: string; column: string } | null {
  const [now, before] = SUPPORT_TABLES.cfObjectTypes;
  if (src.has(now, 'objecttype_id')) return { table: now, column: 'objecttype_id' };
  if (src.has(before, 'contenttype_id')) return { table: before, column: 'contenttype_id' };
  return null;
}

export const SPECIALS: Readonly<Record<Special, SpecialDef>> = {
  scope_site: {
    needs: ['scope_type_id', 'scope_id'],
    select: () => 't.scope_type_id, t.scope_id',
    read(row, src) {
      const st = row.scope_type_id;
      if (st === null || st === undefined) return { value: null };
      const type = src.contentTypes.get(Number(st)) ?? String(st);
      return type === 'dcim.site' ? { value: String(row.scope_id) } : { lost: `scoped to ${type}`, value: null };
    },
    reportAs: 'scope',
  },
  assigned_interface: assigned('dcim.interface', true),
  assigned_vminterface: assigned('virtualization.vminterface', false),
  primary_mac: {
    needs: ['primary_mac_address_id'],
    select: () => '(SELECT m.mac_address::text FROM dcim_macaddress m WHERE m.id = t.primary_mac_address_id) AS __mac',
    read: (row) => ({ value: row.__mac === null || row.__mac === undefined ? null : String(row.__mac).toUpperCase() }),
    reportAs: null,
  },
  cf_content_types: {
    needs: [],
    select(src) {
      const at = cfTypesTable(src);
      return at
        ? `ARRAY(SELECT x.${at.column} FROM ${at.table} x WHERE x.customfield_id = t.id ORDER BY 1) AS __cts`
        : `'{}'::int[] AS __cts`;
    },
    read: (row, src) => ({
      // The importer narrows these to the content types it takes (import-rows.ts).
      value: (row.__cts as number[]).map((id) => src.contentTypes.get(id) ?? String(id)),
    }),
    reportAs: null,
  },
  cf_choices: {
    needs: ['choice_set_id'],
    select: () =>
      `(SELECT c.extra_choices FROM ${SUPPORT_TABLES.cfChoices} c WHERE c.id = t.choice_set_id) AS __ch, ` +
      `(SELECT c.base_choices FROM ${SUPPORT_TABLES.cfChoices} c WHERE c.id = t.choice_set_id) AS __bch`,
    read(row) {
      const extra = ((row.__ch as string[][] | null) ?? []).map((pair) => pair[0]);
      return row.__bch ? { lost: `choices of the set ${String(row.__bch)}`, value: extra } : { value: extra };
    },
    reportAs: 'choice_set_id',
  },
  cf_type: {
    needs: ['type'],
    select: () => 't.type',
    read: (row) => ({ value: CF_TYPES[String(row.type)] ?? null }),
    reportAs: null,
  },
};
