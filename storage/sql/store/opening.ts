// Opening a SQL store: the database reached, its schema migrated (or, for a reader, found
// current), and other processes' commits listened for where the database announces them.
import { CHANGE_CHANNEL } from '../../../engine/sql/change-counter.js';
import { StorageConfigError } from '../../types.js';
import { noteCommitted } from '../../change-log/change-feed.js';
import { migrate, pendingMigrations } from '../migrations.js';
import type { SqlContext } from './context.js';

/**
 * Connects and brings the schema to date (a reader: refuses a schema that is not); the versions
 * applied, null for a reader. The context is started with the database's dialect, carrying the store's id style.
 */
export async function connect(ctx: SqlContext): Promise<number[] | null> {
  const { driver } = ctx;
  const d0 = await driver.connect();
  const asked = ctx.opts.idStyle;
  let applied: number[] | null = null;
  let d = d0;
  if (ctx.opts.reader) {
    const pending = await ctx.guard(() => pendingMigrations(driver, d0, asked));
    d = pending.d;
    const missing = pending.versions;
    if (missing.length)
      throw new StorageConfigError(
        `the database at ${driver.where} lacks schema migrations ${missing.join(', ')}: it is read here, ` +
          'never migrated (run `npm run migrate` against its primary; a standby replays them)',
      );
  } else {
    const done = await ctx.guard(() => migrate(driver, d0, asked));
    d = done.d;
    applied = done.versions;
  }
  ctx.start(d);
  return applied;
}

/**
 * Commits of other processes wake this process's followers of the log (stream, webhooks, replica);
 * the function that stops listening, null where the database has no notifications or the store
 * only reads.
 */
export async function listenForCommits(ctx: SqlContext): Promise<(() => Promise<void>) | null> {
  if (!ctx.driver.listen || ctx.opts.reader) return null;
  return ctx.driver.listen(CHANGE_CHANNEL, (payload) => {
    const n = Number(payload);
    if (n > 0) noteCommitted(n);
  });
}
