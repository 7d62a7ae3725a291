// Statistics kept up with a table's growth by the server itself. PostgreSQL plans from the
// statistics ANALYZE leaves, and autovacuum (which would take them) may be off, as on this
// project's machines: a table filled from empty by the API then keeps the estimates of an empty
// table, and plans made for a few rows go on being used at a million (#34: a fresh database loaded
// through the API answered within its time only once ANALYZE had run by hand). Rows created by
// this process are counted per table; a table grown by GROWTH_SHARE of what it held at its last
// analyze (and by MIN_ROWS at least) is analyzed again, in the background, one table at a time.

/** Rows created since the last analyze before one is due, whatever the table's size. */
export const MIN_ROWS = 10_000;
/**
 * ... and this share of the rows the table held when last analyzed (as autovacuum's analyze scale
 * factor, 0.1 by default, a little less often).
 */
export const GROWTH_SHARE = 0.2;

export class TableGrowth {
  /** Rows created since the table's last analyze, and its rows then (0 until one ran). */
  private readonly tables = new Map<string, { grown: number; at: number }>();
  private running: Promise<void> | null = null;

  /** `analyze(table)` runs ANALYZE and resolves to the table's rows as it now estimates them. */
  constructor(private readonly analyze: (table: string) => Promise<number>) {}

  /** `n` rows were created in `table` (committed); an analyze starts once one is due and none runs. */
  created(table: string, n: number): void {
    const t = this.tables.get(table) ?? { grown: 0, at: 0 };
    t.grown += n;
    this.tables.set(table, t);
    if (!this.running && this.due().length)
      this.running = this.catchUp().finally(() => {
        this.running = null;
      });
  }

  /** The tables whose growth calls for an analyze now. */
  due(): string[] {
    return [...this.tables].filter(([, t]) => t.grown >= Math.max(MIN_ROWS, t.at * GROWTH_SHARE)).map(([name]) => name);
  }

  /** Analyzes what is due, one table after another, until nothing is; a failure is left for the next growth. */
  private async catchUp(): Promise<void> {
    for (let tables = this.due(); tables.length; tables = this.due()) {
      for (const name of tables) {
        const t = this.tables.get(name)!;
        const grown = t.grown;
        try {
          const rows = await this.analyze(name);
          t.at = rows;
          t.grown -= grown; // rows created meanwhile count towards the next
        } catch {
          return;
        }
      }
    }
  }

  /** The analyze under way, if any (tests, close). */
  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }
}
