// The storage backends every conformance case runs on: memory always; PostgreSQL and MySQL when
// TEST_POSTGRES_URL / TEST_MYSQL_URL are set (in CI they must be reachable: a failure, not a skip).
export interface Backend { readonly name: string; url(): Promise<{ url: string; drop(): Promise<void> } | null> }

type FreshDb = (kind: 'postgres' | 'mysql') => Promise<{ url: string; drop(): Promise<void> } | null>;

async function freshDb(): Promise<FreshDb | null> {
  try {
    const mod = (await import('../../storage/test-db.js' as string)) as { freshDatabase: FreshDb };
    return mod.freshDatabase;
  } catch {
    return null;
  }
}

export const BACKENDS: readonly Backend[] = [
  { name: 'memory', url: async () => ({ url: 'memory:', drop: async () => {} }) },
  { name: 'postgres', url: async () => (await freshDb())?.('postgres') ?? null },
  { name: 'mysql', url: async () => (await freshDb())?.('mysql') ?? null },
];
