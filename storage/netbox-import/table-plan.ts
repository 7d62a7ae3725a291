// One taken table's plan against the source as it is: for each product field the source the
// mapping names (the first alternative whose columns exist), the SELECT that reads them, and which
// of the table's columns nothing reads (the report's `left` lines).
import { resource as resourceDef } from '../../engine/schema/registry.js';
import type { FieldDef, ResourceDef } from '../../engine/schema/types.js';
import { INTERNAL_COLUMNS, ROW_COLUMNS, type FieldSource, type TableMap } from './mapping.js';
import { SPECIALS, type Read, type SpecialDef } from './specials.js';
import { quoteIdent, type ImportSource, type SourceRow } from './source.js';

export interface FieldStep {
  readonly field: FieldDef;
  /** The report's name for what this step loses (a column, or a special's name). */
  readonly reportAs: string | null;
  read(row: SourceRow): Read;
}

export interface TablePlan {
  readonly map: TableMap;
  readonly resource: ResourceDef;
  readonly select: string;
  readonly steps: readonly FieldStep[];
  /** Columns of the source table no step reads and that are not NetBox's caches. */
  readonly leftColumns: readonly string[];
}

const blank = (v: unknown) => v === null || v === undefined;

/** The value of a field no source gives, or that was lost: NetBox's empty forms. */
export function fallback(f: FieldDef): unknown {
  if (f.nullable) return null;
  if (f.default !== undefined) return f.default;
  const empty: Partial<Record<FieldDef['kind'], unknown>> = {
    string: '',
    boolean: false,
    tags: [],
    custom_fields: {},
    string_list: [],
  };
  return f.kind in empty ? empty[f.kind] : null;
}

/** A column's value in the product's form for the field's kind. */
export function convert(f: FieldDef, v: unknown): Read {
  if (blank(v)) return { value: fallback(f) };
  switch (f.kind) {
    case 'fk':
      return { value: String(v) };
    case 'integer': {
      const n = Number(v);
      if (!Number.isInteger(n)) return { lost: 'not a whole number', value: fallback(f) };
      const out = (f.min !== undefined && n < f.min) || (f.max !== undefined && n > f.max);
      return out ? { lost: `outside ${f.min ?? ''}..${f.max ?? ''}`, value: fallback(f) } : { value: n };
    }
    case 'boolean':
      return { value: v === true };
    case 'choice':
      return f.choices!.some((c) => c.value === v)
        ? { value: v }
        : { lost: 'not one of the product choices', value: f.default ?? fallback(f) ?? v };
    case 'mac':
      return { value: String(v).toUpperCase() };
    case 'datetime':
      return { value: v instanceof Date ? v.toISOString() : String(v) };
    case 'json':
    case 'string_list':
      return { value: v };
    default:
      return { value: typeof v === 'string' ? v : String(v) };
  }
}

/** The special's definition when its columns exist, or null. */
function usable(src: ImportSource, table: string, s: FieldSource): SpecialDef | string | null {
  if (typeof s === 'string') return src.has(table, s) ? s : null;
  const def = SPECIALS[s.special];
  return def.needs.every((c) => src.has(table, c)) ? def : null;
}

export function planTable(src: ImportSource, map: TableMap): TablePlan {
  const r = resourceDef(map.resource);
  // Times as the product writes them (ISO, UTC, milliseconds), made by PostgreSQL: cheaper than a Date per value.
  const selects = ROW_COLUMNS.filter((c) => src.has(map.table, c)).map((c) =>
    c === 'created' || c === 'last_updated'
      ? `to_char(t.${c} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${c}`
      : `t.${quoteIdent(c)}`,
  );
  const used = new Set(ROW_COLUMNS);
  const steps: FieldStep[] = [];
  for (const [name, given] of Object.entries(map.fields)) {
    const field = r.fields.find((f) => f.name === name);
    if (!field) throw new Error(`netbox import mapping: ${map.resource} has no field ${name}`);
    const alternatives: readonly FieldSource[] = Array.isArray(given) ? given : [given];
    const chosen = alternatives.map((s) => usable(src, map.table, s)).find((x) => x !== null) ?? null;
    if (chosen === null) continue; // this layout has none of them: the field takes its empty form
    if (typeof chosen === 'string') {
      // Read by its name: a row reader's rows carry every column by name (source.ts ImportSource).
      selects.push(`t.${quoteIdent(chosen)}`);
      used.add(chosen);
      steps.push({ field, reportAs: chosen, read: (row) => convert(field, row[chosen]) });
    } else {
      selects.push(chosen.select(src));
      chosen.needs.forEach((c) => used.add(c));
      steps.push({ field, reportAs: chosen.reportAs, read: (row) => chosen.read(row, src) });
    }
  }
  const columns = [...(src.tables.get(map.table) ?? [])];
  const leftColumns = columns.filter((c) => !used.has(c) && !INTERNAL_COLUMNS.some((re) => re.test(c)));
  return { map, resource: r, select: [...new Set(selects)].join(', '), steps, leftColumns };
}
