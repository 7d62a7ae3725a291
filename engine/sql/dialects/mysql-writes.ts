// MySQL / MariaDB's forms of the stores' own write statements: INSERT IGNORE, ON DUPLICATE KEY
// UPDATE, LAST_INSERT_ID for the value an UPDATE set, and no writes inside WITH.
import type { Dialect } from '../dialect.js';
import { quote } from './mysql-quoting.js';

// The value set is kept as the connection's LAST_INSERT_ID (drivers answer it with the UPDATE).
const UPDATE_ANSWERS: Dialect['updateAnswers'] = {
  set: (expr) => `LAST_INSERT_ID(${expr})`,
  tail: () => '',
  read: (alias) => ({ sql: `SELECT LAST_INSERT_ID() AS ${alias}`, params: [] }),
};

export const MYSQL_WRITES = {
  insertSkipping: () => ['INSERT IGNORE INTO', ''],
  upsert: (_table, _keys, set, value) =>
    ` ON DUPLICATE KEY UPDATE ${set.map((c) => `${quote(c)} = ${value(quote(c), `VALUES(${quote(c)})`)}`).join(', ')}`,
  upsertRaising: (_table, _keys, column) => {
    const c = quote(column);
    return ` ON DUPLICATE KEY UPDATE ${c} = GREATEST(${c}, VALUES(${c}))`;
  },
  updateAnswers: UPDATE_ANSWERS,
  arrayRows: false,
  writesInWith: false,
  // A window maximum is no option here (engine/allocation/sql-covered-spans.ts): the caller folds.
  spansFoldedByDatabase: false,
} satisfies Partial<Dialect>;
