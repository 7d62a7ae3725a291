// How the lifecycle API shows entities and history rows, and answers a lifecycle service's result:
// its outcome as a status and a body, a kept answer as it was, a refusal by its kind (errors.ts).
import type { Response } from 'express';
import type { EntityOutcome, EntityResult, HistoryEntry, InstallResult, KeptAnswer } from '../../app/lifecycle.js';
import type { Row } from '../../storage/types.js';
import { sendRefused } from '../errors.js';

export function entityView(row: Row): Record<string, unknown> {
  return {
    entity_id: row.entity_id,
    machine_name: row.machine_name,
    machine_version: row.machine_version,
    state: row.state,
    context: row.context ?? {},
    version: row.version,
    created_at: row.created,
    updated_at: row.last_updated,
  };
}

/** A history row as the API shows it; `context` is the whole context after that change. */
export function historyView({ row, context }: HistoryEntry): Record<string, unknown> {
  return {
    id: row.id,
    entity_id: row.entity_id,
    trigger: row.trigger,
    source_state: row.source_state,
    target_state: row.target_state,
    context,
    created_at: row.created,
  };
}

/** The answer to a create (201, the entity) or an event (200, the entity and the move); kept with a key. */
export function entityAnswer(o: EntityOutcome): KeptAnswer {
  if (o.kind === 'created') return { status: 201, body: entityView(o.entity) };
  const { source_state, target_state, trigger } = o;
  return { status: 200, body: { entity: entityView(o.entity), source_state, target_state, trigger } };
}

export function sendEntityResult(res: Response, r: EntityResult): void {
  if (!r.ok) sendRefused(res, r);
  else {
    const a = 'replayed' in r ? r.replayed : entityAnswer(r.outcome);
    res.status(a.status).json(a.body);
  }
}

/** A machine installed (201), or the same definition already there (200). */
export function sendInstallResult(res: Response, r: InstallResult): void {
  if (!r.ok) sendRefused(res, r);
  else res.status(r.created ? 201 : 200).json(r.machine);
}
