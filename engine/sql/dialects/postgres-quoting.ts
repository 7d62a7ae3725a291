// How PostgreSQL spells names, placeholders and the literals of DDL text.

export const quote = (id: string): string => `"${id.replace(/"/g, '""')}"`;
export const placeholder = (i: number, type: string): string => `$${i}::${type}`;
export const keyList = (keys: readonly string[]): string => keys.map(quote).join(', ');

/** A SQL string literal (for DDL text run through EXECUTE; never used for user values). */
export const sqlString = (s: string): string => `'${s.replace(/'/g, "''")}'`;
