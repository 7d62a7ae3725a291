// An inventory write's refusals that are not about a field: the object moved on under it, another
// request took its Idempotency-Key, the caller's object permissions do not reach the object.
import type { ResourceDef } from '../engine/schema/types.js';
import type { Refused, WriteErrors } from './errors.js';

type Refusal = Refused<WriteErrors>;

/** The object is not at a version the client's If-Match names (`v`: the version it is at, when known). */
export const stale = (v?: number): Refusal => ({
  ok: false,
  kind: 'precondition_failed',
  errors: {
    detail:
      v === undefined
        ? 'The object changed while this write was made; read it again.'
        : `The object has changed: its version is ${v}, not one the If-Match header names. Read it again.`,
    code: 'precondition_failed',
  },
});

export const kept: Refusal = {
  ok: false,
  kind: 'conflict',
  errors: { detail: 'The object kept changing while this write was tried; try again.', code: 'write_contention' },
};

/** Another request with the same Idempotency-Key committed first: its answer is the one to give. */
export const KEY_TAKEN = 'idempotency_key_taken';
export const keyTaken: Refusal = {
  ok: false,
  kind: 'conflict',
  errors: { detail: 'A request with this Idempotency-Key committed first.', code: KEY_TAKEN },
};

/** The caller may view the object but its permission for `action` does not reach it (its constraints). */
export const forbidden = (action: string, r: ResourceDef): Refusal => ({
  ok: false,
  kind: 'forbidden',
  errors: {
    detail:
      `You do not have permission to ${action} this ${r.label.toLowerCase()}: ` +
      'it is outside the constraints of your permissions.',
    code: 'permission_denied',
  },
});
