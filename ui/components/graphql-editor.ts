// The GraphQL query editor: a textarea whose completion list offers, as one types, the fields of the type
// the cursor selects from or the arguments of the field it is in (ui/lib/graphql-complete.ts). Ctrl+Space
// opens the list, arrows move in it, Enter or Tab take an entry, Escape closes it; Ctrl+Enter runs.
import { useRef, useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import { completeAt, type Completion, type SchemaIndex } from '../lib/graphql-complete.js';

const SHOWN = 40;
const optionId = (i: number) => `gql-option-${i}`;

function CompletionList(p: { open: Completion | null; active: number; onPick: (label: string) => void }) {
  const hidden = !p.open;
  return html`<ul id="gql-completions" role="listbox" aria-label="Completions" class="gql-completions" hidden=${hidden}>
    ${(p.open?.items ?? []).map(
      (item, i) =>
        html`<li
          id=${optionId(i)}
          role="option"
          aria-selected=${String(i === p.active)}
          onMouseDown=${(e: Event) => {
            e.preventDefault();
            p.onPick(item.label);
          }}
        >
          <code>${item.label}</code> <span class="muted">${item.detail}</span>
        </li>`,
    )}
  </ul>`;
}

export function GraphqlEditor({
  index,
  text,
  onText,
  onRun,
}: {
  index: SchemaIndex | null;
  text: string;
  onText: (t: string) => void;
  onRun: () => void;
}) {
  const [open, setOpen] = useState<Completion | null>(null);
  const [active, setActive] = useState(0);
  const area = useRef<HTMLTextAreaElement>(null);
  const suggest = (value: string, cursor: number, always: boolean) => {
    if (!index) return;
    const c = completeAt(index, value, cursor);
    const typing = c.from < cursor; // a word is being typed
    setOpen((always || typing) && c.items.length ? { ...c, items: c.items.slice(0, SHOWN) } : null);
    setActive(0);
  };
  const accept = (label: string) => {
    const t = area.current;
    if (!t || !open) return;
    t.setRangeText(label, open.from, t.selectionStart, 'end');
    onText(t.value);
    setOpen(null);
    t.focus();
  };
  const keydown = (e: KeyboardEvent) => {
    const t = e.target as HTMLTextAreaElement;
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      setOpen(null);
      onRun();
    } else if (e.key === ' ' && e.ctrlKey) {
      e.preventDefault();
      suggest(t.value, t.selectionStart, true);
    } else if (open && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      e.preventDefault();
      const n = open.items.length;
      setActive((active + (e.key === 'ArrowDown' ? 1 : n - 1)) % n);
    } else if (open && (e.key === 'Enter' || e.key === 'Tab')) {
      e.preventDefault();
      accept(open.items[active].label);
    } else if (open && e.key === 'Escape') {
      e.preventDefault();
      setOpen(null);
    } else if (!open && e.key === 'Tab' && !e.shiftKey) {
      e.preventDefault();
      t.setRangeText('  ', t.selectionStart, t.selectionEnd, 'end');
      onText(t.value);
    }
  };
  const input = (e: Event) => {
    const t = e.target as HTMLTextAreaElement;
    onText(t.value);
    suggest(t.value, t.selectionStart, false);
  };
  return html`<div class="field gql-editor">
    <label for="gql-query">GraphQL query</label>
    <textarea
      id="gql-query"
      ref=${area}
      rows=${14}
      spellcheck=${false}
      role="combobox"
      aria-autocomplete="list"
      aria-expanded=${String(open !== null)}
      aria-controls="gql-completions"
      aria-activedescendant=${open ? optionId(active) : undefined}
      value=${text}
      onInput=${input}
      onKeyDown=${keydown}
      onBlur=${() => setTimeout(() => setOpen(null), 150)}
    ></textarea>
    <${CompletionList} open=${open} active=${active} onPick=${accept} />
    <small class="hint">Ctrl+Space completes, Ctrl+Enter runs.</small>
  </div>`;
}
