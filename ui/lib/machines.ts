// Reading a machine definition: the triggers leaving a state, their transitions and the context
// keys their guards read.
import type { Guard } from '../../engine/lifecycle/types.js';

export interface Transition {
  trigger: string;
  source: string | string[];
  dest: string;
  guards: Guard[];
  description?: string;
}
export interface Definition {
  states: { name: string; type: string }[];
  transitions: Transition[];
}

const sources = (t: Transition) => (Array.isArray(t.source) ? t.source : [t.source]);

export function availableTriggers(d: Definition, state: string): string[] {
  const out: string[] = [];
  for (const t of d.transitions)
    if ((sources(t).includes(state) || sources(t).includes('*')) && !out.includes(t.trigger)) out.push(t.trigger);
  return out;
}

export function transitionsFor(d: Definition, state: string, trigger: string): Transition[] {
  return d.transitions.filter((t) => t.trigger === trigger && (sources(t).includes(state) || sources(t).includes('*')));
}

/** Top-level context keys the guards read (`a.b` paths give `a`), in the order met. */
export function guardKeys(guards: readonly Guard[]): string[] {
  const out: string[] = [];
  const walk = (g: any) => {
    if (!g || typeof g !== 'object') return;
    for (const c of [...(g.all ?? []), ...(g.any ?? []), ...(g.not ? [g.not] : [])]) walk(c);
    if (typeof g.field === 'string') {
      const k = g.field.split('.')[0];
      if (!out.includes(k)) out.push(k);
    }
  };
  guards.forEach(walk);
  return out;
}

/** A typed value: JSON when it reads as JSON (25, true, ["a"]), else the text. */
export function typedValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
