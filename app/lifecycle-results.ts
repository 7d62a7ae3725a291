// What the lifecycle service takes and returns: checked bodies, outcomes, kept answers, refusals.
import type { MachineDef } from '../engine/lifecycle/index.js';
import type { Row } from '../storage/types.js';
import type { Detail, Refused } from './errors.js';

/** A lifecycle refusal: a detail with its code, and facts a client may act on (the current state). */
export type LcRefused = Refused<Detail & { readonly code: string }>;

/** The answer kept with an Idempotency-Key: as the server gave it, given back as it was on a repeat. */
export interface KeptAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** What a create or an event did: the entity as written (and, for an event, the move). */
export type EntityOutcome =
  | { readonly kind: 'created'; readonly entity: Row }
  | {
      readonly kind: 'moved';
      readonly entity: Row;
      readonly source_state: string;
      readonly target_state: string;
      readonly trigger: string;
    };

/** A call with an Idempotency-Key: the client's key, and the answer an outcome gets (kept with the write). */
export interface KeyedCall {
  readonly key: string;
  readonly answer: (o: EntityOutcome) => KeptAnswer;
}

/** An entity change's result: its outcome, the answer kept for a repeat of a keyed call, or a refusal. */
export type EntityResult = { ok: true; outcome: EntityOutcome } | { ok: true; replayed: KeptAnswer } | LcRefused;
export type InstallResult = { ok: true; created: boolean; machine: MachineDef } | LcRefused;

/** A create's body, as the OpenAPI document's EntityCreate admits it (checked before it gets here). */
export interface EntityCreate {
  readonly machine_name: string;
  readonly machine_version?: string;
  readonly context?: Record<string, unknown>;
}
/** An event's body, as the OpenAPI document's EventRequest admits it (checked before it gets here). */
export interface EntityEvent {
  readonly trigger: string;
  readonly context?: Record<string, unknown>;
  readonly expected_state?: string;
}

/** A history row with the whole context after that change (a row stores what changed since the one before). */
export interface HistoryEntry {
  readonly row: Row;
  readonly context: Record<string, unknown>;
}
