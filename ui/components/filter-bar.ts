// The filter bar: free text is the `q` search, `field__lookup=value` words become chips. Completion
// offers the list's filter parameters (from the OpenAPI document) and, after `name=`, the field's
// choices (document and OPTIONS). A chip the API refused shows the API's 400 message beside it.
import { useMemo, useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import type { Resource } from '../lib/openapi.js';
import { addPairs, baseField, parseTyped, type Pair } from '../lib/query.js';

export interface FilterBarProps {
  readonly resource: Resource;
  readonly pairs: readonly Pair[];
  readonly errors: Readonly<Record<string, readonly string[]>>;
  readonly choices: Readonly<Record<string, readonly string[]>>; // field -> values (OPTIONS)
  readonly onChange: (pairs: Pair[]) => void;
}

/** Completion entries for what is typed so far (its last word). */
export function suggestions(
  resource: Resource,
  choices: Readonly<Record<string, readonly string[]>>,
  typed: string,
): string[] {
  const word = typed.split(/\s+/).pop() ?? '';
  const head = typed.slice(0, typed.length - word.length);
  const eq = word.indexOf('=');
  if (eq < 0) {
    const w = word.toLowerCase();
    return resource.filters
      .filter((f) => f.name.includes(w))
      .slice(0, 60)
      .map((f) => `${head}${f.name}=`);
  }
  const name = word.slice(0, eq);
  const param = resource.filters.find((f) => f.name === name);
  const values = new Set([...(param?.choices ?? []), ...(choices[baseField(name)] ?? [])]);
  if (['true', 'false'].some((b) => name.endsWith('__isnull') || name.endsWith('__empty'))) {
    values.add('true');
    values.add('false');
  }
  return [...values].map((v) => `${head}${name}=${v}`);
}

export function FilterBar({ resource, pairs, errors, choices, onChange }: FilterBarProps) {
  const [text, setText] = useState('');
  const listId = `filters-${resource.key.replace('/', '-')}`;
  const options = useMemo(() => suggestions(resource, choices, text), [resource, choices, text]);
  const submit = (e: Event) => {
    e.preventDefault();
    const typed = parseTyped(text);
    const added: Pair[] = [...typed.pairs];
    if (typed.q) added.push(['q', typed.q]);
    if (added.length) onChange(addPairs(pairs, added));
    setText('');
  };
  const remove = (i: number) => onChange(pairs.filter((_, j) => j !== i));
  const unknown = Object.keys(errors).filter((k) => !pairs.some(([n]) => n === k));
  return html`<form class="filter-bar" role="search" aria-label=${`Filter ${resource.title}`} onSubmit=${submit}>
    <div class="filter-input">
      <label for=${`${listId}-input`}>Filter</label>
      <input
        id=${`${listId}-input`}
        list=${listId}
        autocomplete="off"
        spellcheck=${false}
        value=${text}
        placeholder="free text, or status=active, network__net_contains=10.3.1.17"
        onInput=${(e: Event) => setText((e.target as HTMLInputElement).value)}
      />
      <datalist id=${listId}>${options.map((o) => html`<option value=${o}></option>`)}</datalist>
      <button type="submit">Apply filter</button>
    </div>
    <ul class="chips" aria-label="Active filters">
      ${pairs.map(
        ([k, v], i) =>
          html`<li class=${`chip${errors[k] ? ' chip-bad' : ''}`} data-testid="chip">
            <code>${k === 'q' ? `search: ${v}` : `${k}=${v}`}</code>
            <button type="button" class="chip-x" aria-label=${`Remove filter ${k}=${v}`} onClick=${() => remove(i)}>
              ×
            </button>
            ${errors[k] ? html`<span class="chip-error" role="alert">${errors[k].join(' ')}</span>` : null}
          </li>`,
      )}
    </ul>
    ${
      unknown.length
        ? html`<div class="msg msg-error" role="alert">
            ${unknown.map((k) => `${k}: ${errors[k].join(' ')}`).join('; ')}
          </div>`
        : null
    }
  </form>`;
}
