// The statement time limit on MySQL / MariaDB. MariaDB's max_statement_time (seconds) stops every
// statement; MySQL's max_execution_time (ms) stops read-only SELECTs only (SELECT ... FOR UPDATE
// included), so the driver cancels MySQL's other statements itself with KILL QUERY.

/**
 * Both variables for a session: each server rejects the other's, so both are sent and the unknown
 * one's error ignored (the limit is set before the server is identified).
 */
export const timeLimitStatements = (ms: number): string[] => [
  `SET SESSION max_statement_time = ${ms / 1000}`,
  `SET SESSION max_execution_time = ${ms}`,
];

/** Statements MySQL's max_execution_time covers. */
export const SERVER_TIMED = /^\s*(SELECT|WITH)\b/i;

/** Marks an error as the driver's own cancellation at the limit (classified as a timeout). */
export const STATEMENT_TIMEOUT = Symbol('statement timeout');
