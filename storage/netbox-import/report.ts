// The take/leave table an import ends with (and a dry run prints instead of writing): one line per
// NetBox table that holds rows, what was taken and what was left with the reason, then one line
// per column of a taken table the product has no field for, and per value the product could not hold.
import { MACHINERY_TABLES, SUPPORT_TABLES } from './mapping.js';
import type { ImportSource } from './source.js';
import type { TablePlan } from './table-plan.js';

export interface ReportLine {
  /** `dcim_site`, or `dcim_device.airflow` for a column, `ipam_prefix.scope` for a value. */
  readonly name: string;
  readonly taken?: number;
  /** Rows (or values) left; for a column without a field, the rows that hold a value in it. */
  readonly left?: number;
  readonly why?: string;
}

/** Rows or values an import could not take, by report name and reason. */
export class Losses {
  private readonly byName = new Map<string, Map<string, number>>();
  add(name: string, why: string, n = 1): void {
    const m = this.byName.get(name) ?? new Map<string, number>();
    m.set(why, (m.get(why) ?? 0) + n);
    this.byName.set(name, m);
  }
  of(name: string): readonly { why: string; n: number }[] {
    return [...(this.byName.get(name) ?? [])].map(([why, n]) => ({ why, n }));
  }
  names(): string[] {
    return [...this.byName.keys()];
  }
}

/** Read for the taken tables' sake, with lines of their own (choice sets are not: their extra choices are carried
 * on the custom fields that use them, the sets themselves are left). */
const supportTables = new Set<string>([SUPPORT_TABLES.tagged, ...SUPPORT_TABLES.cfObjectTypes]);

/** The table's lines: tables first (by name), then each taken table's columns and values. */
export async function buildReport(
  src: ImportSource,
  counts: ReadonlyMap<string, number>,
  plans: readonly TablePlan[],
  taken: ReadonlyMap<string, number>,
  losses: Losses,
): Promise<ReportLine[]> {
  const planned = new Map(plans.map((p) => [p.map.table, p]));
  const lines: ReportLine[] = [];
  const uncounted = (src.uncounted ?? []).map((t) => [t, null] as const);
  const tables = [...counts, ...uncounted].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [table, n] of tables) {
    if (n === null) {
      lines.push({ name: table, why: 'the token may not read it: not counted' });
      continue;
    }
    if (planned.has(table) || supportTables.has(table)) {
      const got = taken.get(table) ?? 0;
      const rest = losses.of(table);
      if (!rest.length) lines.push({ name: table, taken: got, ...(got < n ? { left: n - got } : {}) });
      rest.forEach((l, i) => lines.push({ name: table, ...(i ? {} : { taken: got }), left: l.n, why: l.why }));
    } else {
      const machinery = MACHINERY_TABLES.some((re) => re.test(table));
      lines.push({ name: table, left: n, why: machinery ? 'NetBox machinery, not inventory' : 'no such resource' });
    }
  }
  for (const plan of plans) {
    if (!counts.has(plan.map.table)) continue;
    const set = await src.setCounts(plan.map.table, plan.leftColumns);
    for (const c of plan.leftColumns)
      lines.push({ name: `${plan.map.table}.${c}`, left: set.get(c) ?? 0, why: 'no such field' });
  }
  for (const name of losses
    .names()
    .filter((x) => x.includes('.'))
    .sort())
    for (const l of losses.of(name)) lines.push({ name, left: l.n, why: l.why });
  return lines;
}

/** `dcim_site  taken 24`, `circuits_circuit  left 29 (no such resource)`, `dcim_device.airflow  left 3 set (...)`. */
export function formatReport(lines: readonly ReportLine[]): string {
  const width = Math.max(0, ...lines.map((l) => l.name.length)) + 2;
  return lines
    .map((l) => {
      const column = l.name.includes('.') && l.why === 'no such field';
      const parts = [
        l.taken !== undefined ? `taken ${l.taken}` : '',
        l.left !== undefined ? `left ${column ? `(${l.left} set)` : l.left}` : '',
      ].filter(Boolean);
      // A table that could not be counted is left all the same.
      if (!parts.length) parts.push('left');
      return `${l.name.padEnd(width)}${parts.join(', ')}${l.why && !column ? ` (${l.why})` : ''}`;
    })
    .join('\n');
}
