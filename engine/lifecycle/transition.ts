// transition(): decides where an event takes an entity. Pure: it never
// mutates the entity and never throws; the caller (a store) applies an ok
// result and writes the history row.
import type { EntityState, Guard, MachineDef, TransitionEvent, TransitionResult } from './types.js';
import { evaluateGuards } from './guards.js';
import { isPlainObject } from './json.js';

/** Triggers that have at least one transition out of `state` (sorted, unique). */
export function availableTriggers(def: MachineDef, state: string): string[] {
  const triggers = new Set<string>();
  for (const t of def.transitions) {
    if (t.source.includes(state)) triggers.add(t.trigger);
  }
  return [...triggers].sort();
}

/** Entity context with the event context shallow-merged over it (event keys win). */
export function mergeContext(
  entityContext: Record<string, unknown> | undefined,
  eventContext: Record<string, unknown> | undefined,
): Record<string, unknown> {
  // spread defines own data properties, so a "__proto__" key cannot reach a prototype;
  // anything that is not a plain object (array, null, string) contributes nothing
  return {
    ...(isPlainObject(entityContext) ? entityContext : {}),
    ...(isPlainObject(eventContext) ? eventContext : {}),
  };
}

export function transition(def: MachineDef, entity: EntityState, event: TransitionEvent): TransitionResult {
  const state = entity?.state;
  const trigger = event?.trigger;
  const candidates: number[] = [];
  def.transitions.forEach((t, i) => {
    if (t.trigger === trigger && t.source.includes(state)) candidates.push(i);
  });
  if (candidates.length === 0) {
    return { ok: false, code: 'invalid_transition', available: availableTriggers(def, state) };
  }

  const context = mergeContext(entity.context, event.context);
  let firstFailure: { guard: Guard; description: string } | undefined;
  for (const index of candidates) {
    const result = evaluateGuards(def.transitions[index].guards, context);
    if (result.pass) {
      return {
        ok: true,
        target_state: def.transitions[index].dest,
        source_state: state,
        context,
        transitionIndex: index,
      };
    }
    firstFailure ??= { guard: result.failed, description: result.description };
  }
  const { guard, description } = firstFailure as { guard: Guard; description: string };
  return { ok: false, code: 'guard_rejected', guard, description };
}
