// PostgreSQL errors by SQLSTATE / socket code: unique and foreign-key violations (with the
// constraint, and the missing key from the detail text), and a lost or unreachable server.
import type { ClassifiedError } from '../sql/driver.js';
import { SOCKET_UNAVAILABLE_CODES } from '../sql/socket-errors.js';

const UNAVAILABLE_CODES = new Set([
  ...SOCKET_UNAVAILABLE_CODES,
  '57P01',
  '57P02',
  '57P03', // admin / crash shutdown, cannot connect now
  '08000',
  '08001',
  '08003',
  '08004',
  '08006', // connection exceptions
  '53300', // too many connections
]);

/** invalid_regular_expression: a pattern PostgreSQL's engine cannot run. */
const INVALID_REGEX = '2201B';

/** deadlock_detected, serialization_failure: the transaction was rolled back whole. */
const VICTIM_CODES = new Set(['40P01', '40001']);

/** statement_timeout fired (also a cancel request, which nothing else here sends). */
const QUERY_CANCELED = '57014';

const UNAVAILABLE_MESSAGES = new RegExp(
  [
    'Connection terminated',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error',
    'Connection refused',
    'Client was closed',
  ].join('|'),
  'i',
);

interface PgLikeError {
  code?: string;
  constraint?: string;
  detail?: string;
  message?: string;
  errors?: unknown[];
}

function codeOf(e: PgLikeError): string | undefined {
  if (e.code) return e.code;
  const inner = e.errors?.[0] as PgLikeError | undefined; // AggregateError from a multi-address connect
  return inner?.code;
}

export function classifyPgError(err: unknown): ClassifiedError {
  if (typeof err !== 'object' || err === null) return { kind: 'other' };
  const e = err as PgLikeError;
  const code = codeOf(e);
  if (code === '23505' && e.constraint) return { kind: 'unique', constraint: e.constraint };
  if (code === '23503' && e.constraint) {
    const m = /=\(([^)]*)\) is not present/.exec(e.detail ?? '');
    return { kind: 'fk', constraint: e.constraint, value: m ? m[1] : null };
  }
  if (code === QUERY_CANCELED) return { kind: 'timeout' };
  if (code && VICTIM_CODES.has(code)) return { kind: 'victim' };
  if (code === INVALID_REGEX) return { kind: 'pattern', message: e.message ?? 'invalid regular expression' };
  if ((code && UNAVAILABLE_CODES.has(code)) || UNAVAILABLE_MESSAGES.test(e.message ?? ''))
    return { kind: 'unavailable', message: `PostgreSQL unavailable: ${code ?? e.message}` };
  return { kind: 'other' };
}

/** Short reason for "cannot connect …": the socket code, else the server's first message line. */
export function pgConnectReason(err: unknown): string {
  const e = (err ?? {}) as PgLikeError;
  const code = codeOf(e);
  if (code && /^E[A-Z]+$/.test(code)) return code;
  return String(e.message ?? err).split('\n')[0] || String(code);
}
