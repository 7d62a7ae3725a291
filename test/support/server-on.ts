// Mocha hooks for a suite that runs against one backend: a fresh database (dropped after), a
// server on it, and a suite skipped with one line when the backend is not configured.
import type { Config } from '../../server/config/defaults.js';
import type { Backend } from '../e2e/conformance/backends.js';
import { startServer, type TestServer } from './server.js';

/**
 * Registers before/after hooks in the calling `describe` and returns a handle whose `req`/`url`
 * reach the server started there (valid inside tests and later hooks).
 */
export function serverOn(
  backend: Backend,
  setup?: (srv: TestServer) => Promise<void>,
  over: Partial<Config> = {},
): TestServer {
  let current: TestServer | null = null;
  let db: { url: string; drop(): Promise<void> } | null = null;
  before(async function () {
    db = await backend.url();
    if (!db) {
      console.log(`    (skipped: ${backend.name} not configured; set TEST_${backend.name.toUpperCase()}_URL)`);
      this.skip();
    }
    current = await startServer({ storage: db.url, ...over });
    if (setup) await setup(current);
  });
  after(async () => {
    await current?.close();
    await db?.drop();
    current = null;
    db = null;
  });
  const live = (): TestServer => {
    if (!current) throw new Error(`no server on ${backend.name}: used outside the suite's tests`);
    return current;
  };
  return {
    get running() {
      return live().running;
    },
    get url() {
      return live().url;
    },
    req: (...args) => live().req(...args),
    close: () => live().close(),
  };
}
