// A store's id style, kept in the database (store_settings, created beside schema_migrations at the
// first migrating start): chosen when the store is created (StorageOptions.idStyle, default uuid),
// read at every later open. A database an earlier release created (migrations recorded, no style)
// is a uuid store. An explicit style that differs from the store's refuses the open.
import { ID_STYLE, type IdStyleName } from '../../engine/schema/id-style.js';
import type { Dialect } from '../../engine/sql/dialect.js';
import { SqlBuilder } from '../../engine/sql/sql-builder.js';
import { StorageConfigError } from '../types.js';
import type { SqlSession } from './driver.js';

export const SETTINGS_TABLE = 'store_settings';

/** An explicit id style that is not the store's (the open is refused). */
export class IdStyleRefused extends StorageConfigError {
  constructor(
    readonly asked: IdStyleName,
    readonly stored: IdStyleName,
    where: string,
  ) {
    super(
      `ID_STYLE=${asked} but the store at ${where} has ${stored} ids (a store keeps the id style it was ` +
        `created with): refusing to start`,
    );
  }
}
const STYLE_KEY = 'id_style';

export const settingsTableSql = (d: Dialect): string =>
  `CREATE TABLE IF NOT EXISTS ${d.quote(SETTINGS_TABLE)} (${d.quote('name')} ${d.asciiText(64, true)} NOT NULL ` +
  `PRIMARY KEY, ${d.quote('value')} ${d.asciiText(200, false)} NOT NULL)${d.tableOptions}`;

/** The style the database records, null when none is (a new database, or one of an earlier release). */
export async function recordedStyle(s: SqlSession, d: Dialect): Promise<IdStyleName | null> {
  const st = new SqlBuilder(d)
    .emit(`SELECT ${d.quote('value')} AS v FROM ${d.quote(SETTINGS_TABLE)} WHERE ${d.quote('name')} = `)
    .param(STYLE_KEY, 'text')
    .build();
  // No table yet: nothing recorded (a reader of a database no migrating start has opened).
  const rows = await s.query(st.sql, st.params).then(
    (r) => r.rows,
    () => [],
  );
  const v = rows.length ? String(rows[0].v) : null;
  if (v !== null && !(v in ID_STYLE))
    throw new StorageConfigError(`the database records id style "${v}", which this build does not know`);
  return v as IdStyleName | null;
}

export function recordStyleSql(d: Dialect, style: IdStyleName): { sql: string; params: unknown[] } {
  const st = new SqlBuilder(d)
    .emit(`INSERT INTO ${d.quote(SETTINGS_TABLE)} (${d.quote('name')}, ${d.quote('value')}) VALUES (`)
    .param(STYLE_KEY, 'text')
    .emit(', ')
    .param(style, 'text')
    .emit(')')
    .build();
  return { sql: st.sql, params: [...st.params] };
}

/**
 * The store's style: the recorded one; else uuid when migrations are recorded (an earlier release's
 * store), else (a new database) the asked one or uuid. An explicit `asked` that differs: refused.
 */
export function storeStyle(
  recorded: IdStyleName | null,
  migrated: boolean,
  asked: IdStyleName | undefined,
  where: string,
): IdStyleName {
  const style = recorded ?? (migrated ? 'uuid' : (asked ?? 'uuid'));
  if (asked && asked !== style) throw new IdStyleRefused(asked, style, where);
  return style;
}
