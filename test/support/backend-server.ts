// One server per backend for a describe block: before() starts it on a fresh database of the
// backend (the block is skipped where the backend is not configured), after() stops it and drops
// the database. Tests read `holder.srv`.
import type { Config } from '../../server/config/defaults.js';
import type { Backend } from '../e2e/conformance/backends.js';
import { startServer, type TestServer } from './server.js';

export function serverOn(backend: Backend, over: Partial<Config> = {}): { srv: TestServer } {
  const holder = {} as { srv: TestServer };
  let drop: () => Promise<void> = async () => {};
  before(async function () {
    const db = await backend.url();
    if (!db) {
      this.skip();
      return;
    }
    drop = db.drop;
    holder.srv = await startServer({ storage: db.url, ...over });
  });
  after(async () => {
    await holder.srv?.close();
    await drop();
  });
  return holder;
}
