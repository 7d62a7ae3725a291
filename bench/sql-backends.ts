// SQL backends for the benchmark: a fresh database each, or a line saying why one is skipped.
export interface SqlBackend {
  readonly name: string;
  readonly url: string;
  drop(): Promise<void>;
  /** Extra comparisons on the same data (e.g. Nautobot's SQL form). */
  readonly extra?: (samples: readonly string[]) => Promise<Record<string, () => Promise<unknown>>>;
}

type FreshDb = (kind: 'postgres' | 'mysql') => Promise<{ url: string; drop(): Promise<void> } | null>;

export async function sqlBackends(wanted: ReadonlySet<string>): Promise<SqlBackend[]> {
  process.env.TEST_POSTGRES_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
  process.env.TEST_MYSQL_URL ??= 'mysql://root@127.0.0.1:3306/test';
  let fresh: FreshDb;
  try {
    fresh = ((await import('../storage/test-db.js' as string)) as { freshDatabase: FreshDb }).freshDatabase;
  } catch {
    if (wanted.has('postgres') || wanted.has('mysql')) console.log('  SQL backends skipped: this build has no SQL storage');
    return [];
  }
  const out: SqlBackend[] = [];
  for (const name of ['postgres', 'mysql'] as const) {
    if (!wanted.has(name)) continue;
    try {
      const db = await fresh(name);
      if (db) out.push({ name, url: db.url, drop: db.drop });
      else console.log(`  ${name} skipped: not configured`);
    } catch (e) {
      console.log(`  ${name} skipped: not reachable (${(e as Error).message})`);
    }
  }
  return out;
}
