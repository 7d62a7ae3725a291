// MySQL / MariaDB errors by errno / socket code: duplicate keys and foreign-key violations (with
// the constraint name parsed from the message), and a lost or unreachable server.
import type { ClassifiedError } from '../sql/driver.js';
import { SOCKET_UNAVAILABLE_CODES } from '../sql/socket-errors.js';
import { STATEMENT_TIMEOUT } from './statement-timeout.js';

const ER_DUP_ENTRY = 1062;
/** InnoDB rolled the transaction back to break a deadlock. */
const ER_LOCK_DEADLOCK = 1213;
const FK_ERRNOS = new Set([1216, 1217, 1451, 1452]); // no referenced row / row is referenced

const UNAVAILABLE_CODES = new Set([
  ...SOCKET_UNAVAILABLE_CODES,
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_SERVER_SHUTDOWN',
  'ER_CON_COUNT_ERROR',
  'ER_CONNECTION_KILLED',
  'CR_SERVER_GONE_ERROR',
  'CR_SERVER_LOST',
]);
const UNAVAILABLE_ERRNOS = new Set([1053, 1040, 1927, 2002, 2003, 2006, 2013]);
/** MariaDB max_statement_time (1969), MySQL max_execution_time (3024). */
const TIMEOUT_ERRNOS = new Set([1969, 3024]);
/** A pattern the regex engine refuses: MariaDB's PCRE (1139), MySQL 8's ICU (ER_REGEXP_*, 3685–3699). */
const REGEX_ERRNOS = new Set([1139, ...Array.from({ length: 15 }, (_, i) => 3685 + i)]);
const UNAVAILABLE_MESSAGES = /closed state|Connection lost|connect ETIMEDOUT|Pool is closed/i;

interface MysqlLikeError {
  code?: string;
  errno?: number;
  message?: string;
  sqlMessage?: string;
  errors?: unknown[];
}

function codeOf(e: MysqlLikeError): string | undefined {
  return e.code ?? (e.errors?.[0] as MysqlLikeError | undefined)?.code;
}

export function classifyMysqlError(err: unknown): ClassifiedError {
  if (typeof err !== 'object' || err === null) return { kind: 'other' };
  const e = err as MysqlLikeError;
  const msg = e.sqlMessage ?? e.message ?? '';
  if ((err as Record<symbol, unknown>)[STATEMENT_TIMEOUT]) return { kind: 'timeout' };
  if (e.errno === ER_DUP_ENTRY) {
    // MariaDB: for key 'uq_site_name'; MySQL 8: for key 'site.uq_site_name'.
    const m = /for key '([^']+)'/.exec(msg);
    if (m) return { kind: 'unique', constraint: m[1].slice(m[1].lastIndexOf('.') + 1) };
  }
  if (e.errno !== undefined && FK_ERRNOS.has(e.errno)) {
    const m = /CONSTRAINT `([^`]+)`/.exec(msg);
    if (m) return { kind: 'fk', constraint: m[1], value: null };
  }
  if (e.errno !== undefined && TIMEOUT_ERRNOS.has(e.errno)) return { kind: 'timeout' };
  if (e.errno === ER_LOCK_DEADLOCK) return { kind: 'victim' };
  if (e.errno !== undefined && REGEX_ERRNOS.has(e.errno)) return { kind: 'pattern', message: msg };
  const code = codeOf(e);
  if (
    (code && UNAVAILABLE_CODES.has(code)) ||
    (e.errno !== undefined && UNAVAILABLE_ERRNOS.has(e.errno)) ||
    UNAVAILABLE_MESSAGES.test(msg)
  )
    return { kind: 'unavailable', message: `MySQL unavailable: ${code ?? msg}` };
  return { kind: 'other' };
}

export function mysqlConnectReason(err: unknown): string {
  const e = (err ?? {}) as MysqlLikeError;
  const code = codeOf(e);
  if (code && /^E[A-Z]+$/.test(code)) return code;
  return String(e.sqlMessage ?? e.message ?? err).split('\n')[0] || String(code);
}
