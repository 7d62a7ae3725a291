// Why a service refused, as a kind the caller can act on. Services return these; they never name
// an HTTP status: server/errors.ts alone maps each kind to one (its STATUS table).
import type { FieldErrors } from '../engine/schema/validate-input.js';

export type RefusalKind =
  /** The input breaks a field rule or a rule across fields (field errors, or a detail). */
  | 'invalid'
  /** An object the request names does not exist. */
  | 'not_found'
  /** The stored state refuses the change (it exists, a reference protects it, another writer won). */
  | 'conflict'
  /** The object is not at a version the client's precondition (If-Match) names. */
  | 'precondition_failed'
  /** The caller's permissions do not reach the object (outside its object permission's constraints). */
  | 'forbidden'
  /** The change would make a stored value larger than its limit. */
  | 'too_large'
  /** An Idempotency-Key came back with another request body. */
  | 'key_reused';

/** A refusal worded as one sentence, with a stable code (and facts a client may act on). */
export interface Detail {
  readonly detail: string;
  readonly code?: string;
  readonly [fact: string]: unknown;
}

/** An inventory write's refusal: field errors (per item for a batch), or a detail. */
export type WriteErrors = FieldErrors | FieldErrors[] | Detail;

export interface Refused<E> {
  readonly ok: false;
  readonly kind: RefusalKind;
  readonly errors: E;
}

export const refused = <E>(kind: RefusalKind, errors: E): Refused<E> => ({ ok: false, kind, errors });
