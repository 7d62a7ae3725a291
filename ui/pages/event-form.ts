// Sending an event: the triggers leaving the current state, each transition's guards in the words the
// API's errors use, one input per context key the guards read, and free JSON for the rest.
import { useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import { enc, request } from '../lib/api.js';
import { describeGuard } from '../../engine/lifecycle/describe-guard.js';
import { availableTriggers, guardKeys, transitionsFor, typedValue, type Definition } from '../lib/machines.js';
import { checkJson, JsonEditor } from '../components/json-editor.js';
import { Message } from '../components/message.js';

export function EventForm({
  entity,
  definition,
  onDone,
}: {
  entity: any;
  definition: Definition;
  onDone: (text: string) => void;
}) {
  const triggers = availableTriggers(definition, entity.state);
  const [trigger, setTrigger] = useState(triggers[0] ?? '');
  const [keys, setKeys] = useState<Record<string, string>>({});
  const [json, setJson] = useState('');
  const [cas, setCas] = useState(true);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  if (!triggers.length) return html`<${Message} kind="info">No transition leaves state ${entity.state}.</${Message}>`;
  const ts = transitionsFor(definition, entity.state, trigger);
  const needed = guardKeys(ts.flatMap((t) => t.guards));
  const check = checkJson(json, true);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!check.ok) return;
    const context: Record<string, unknown> = { ...((check.value as object) ?? {}) };
    for (const k of needed) if ((keys[k] ?? '').trim() !== '') context[k] = typedValue(keys[k].trim());
    const body: Record<string, unknown> = { trigger };
    if (Object.keys(context).length) body.context = context;
    if (cas) body.expected_state = entity.state;
    setBusy(true);
    const r = await request('POST', `/api/v1/entities/${enc(entity.entity_id)}/events`, { body });
    setBusy(false);
    if (r.ok) {
      onDone(`${r.body.trigger}: ${r.body.source_state} → ${r.body.target_state}`);
      return;
    }
    setError(refusal(r));
  };
  return html`<form class="card event-form" aria-label="Send an event" onSubmit=${submit}>
    <h2>Send an event</h2>
    <div class="field">
      <label for="ev-trigger">Trigger</label>
      <select
        id="ev-trigger"
        name="trigger"
        value=${trigger}
        onChange=${(e: any) => {
          setTrigger(e.target.value);
          setError('');
        }}
      >
        ${triggers.map((t) => html`<option value=${t} selected=${t === trigger}>${t}</option>`)}
      </select>
    </div>
    <div class="guards" aria-live="polite" data-testid="guards">${ts.map(guardLine)}</div>
    ${needed.map((k) => keyInput(k, keys, setKeys))}
    <${JsonEditor}
      id="ev-context"
      label="Event context (JSON, optional)"
      text=${json}
      onText=${setJson}
      optional
      rows=${4}
    />
    <div class="field inline">
      <input type="checkbox" id="cas-box" checked=${cas} onChange=${(e: any) => setCas(e.target.checked)} />
      <label for="cas-box">Only if still at ${entity.state} (expected_state)</label>
    </div>
    <button type="submit" disabled=${!check.ok || busy}>Send event</button>
    ${error ? html`<${Message} kind="error">${error}</${Message}>` : null}
  </form>`;
}

/** The refusal as the API gave it, with the triggers it offers instead. */
function refusal(r: { status: number; body: any; text: string }): string {
  const offered = r.body?.available_triggers ? ` Available: ${r.body.available_triggers.join(', ')}.` : '';
  return `${r.status} ${r.body?.code ?? ''}: ${r.body?.detail ?? r.text}${offered}`;
}

/** A transition the trigger may take, and the guards it needs. */
function guardLine(t: ReturnType<typeof transitionsFor>[number]) {
  return html`<div>→ ${t.dest}${
    t.guards.length
      ? html`: needs ${t.guards.map((g, i) => html`${i ? ' and ' : ''}<code>${describeGuard(g)}</code>`)}`
      : ' (no guard)'
  }
  </div>`;
}

/** An input for one context key the guards read. */
function keyInput(k: string, keys: Record<string, string>, setKeys: (keys: Record<string, string>) => void) {
  return html`<div class="field inline-field">
    <label for=${`ev-key-${k}`}>${k}</label>
    <input
      id=${`ev-key-${k}`}
      name=${k}
      value=${keys[k] ?? ''}
      autocomplete="off"
      onInput=${(e: any) => setKeys({ ...keys, [k]: e.target.value })}
    />
  </div>`;
}
