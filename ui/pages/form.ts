// Create and edit forms of any resource, built from OPTIONS (`actions.POST` on the list path,
// `actions.PUT` on the object's path): its writable fields, their types, choices and limits.
// Foreign keys offer the target's objects; the API's 400 messages appear beside their fields.
import { useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import { errorText, request } from '../lib/api.js';
import { useAsync } from '../lib/use-async.js';
import { loadOptions, resourceOfSchema, type Catalog, type FieldMeta } from '../lib/catalog.js';
import type { Resource } from '../lib/openapi.js';
import { go } from '../lib/route.js';
import { Loading, Message } from '../components/message.js';

type Values = Record<string, string | boolean>;

/** The form's text for a value read from the API. */
function initial(meta: FieldMeta, v: unknown): string | boolean {
  if (meta.type === 'boolean') return !!v;
  if (v === null || v === undefined) return '';
  if (meta.type === 'choice' && typeof v === 'object') return String((v as any).value);
  if (meta.type === 'field' && typeof v === 'object') return String((v as any).id);
  if (meta.type === 'list' && Array.isArray(v))
    return v.map((t) => (typeof t === 'object' ? (t.slug ?? t.name ?? t.id) : t)).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/**
 * The value to send for a field's text, or an error message. `integerRef`: a foreign key's target has
 * integer ids (an integer store), so an id typed or chosen is sent as a JSON number (`"site": 17`).
 */
export function toValue(
  meta: FieldMeta,
  text: string | boolean,
  integerRef = false,
): { value?: unknown; error?: string } {
  if (meta.type === 'boolean') return { value: !!text };
  const t = String(text).trim();
  if (t === '') return { value: meta.type === 'string' || meta.type === 'slug' ? '' : null };
  if (meta.type === 'field' && integerRef && /^[1-9]\d{0,15}$/.test(t) && Number.isSafeInteger(Number(t)))
    return { value: Number(t) };
  if (meta.type === 'integer') return /^-?\d+$/.test(t) ? { value: Number(t) } : { error: 'Enter a whole number.' };
  if (meta.type === 'list')
    return {
      value: t
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    };
  if (meta.type === 'json' || meta.type === 'custom_fields') {
    try {
      return { value: JSON.parse(t) };
    } catch (e) {
      return { error: `Not JSON: ${(e as Error).message}` };
    }
  }
  return { value: t };
}

function FkSelect({
  id,
  target,
  value,
  onChange,
  required,
}: {
  id: string;
  target?: Resource;
  value: string;
  onChange: (v: string) => void;
  required: boolean;
}) {
  const got = useAsync(
    async () =>
      target ? ((await request('GET', `${target.listPath}?brief=true&limit=1000`)).body?.results ?? []) : [],
    [target?.listPath],
  );
  if (!target || (got.data && got.data.length >= 1000))
    return html`<input id=${id} value=${value} placeholder="id" onInput=${(e: any) => onChange(e.target.value)} />`;
  return html`<select id=${id} value=${value} onChange=${(e: any) => onChange(e.target.value)}>
    ${required ? null : html`<option value="">(none)</option>`}
    ${(got.data ?? []).map(
      (o: any) => html`<option value=${String(o.id)} selected=${String(o.id) === value}>${o.display}</option>`,
    )}
  </select>`;
}

export function FormPage({ catalog, resource, id }: { catalog: Catalog; resource: Resource; id?: string }) {
  const objPath = id ? `${resource.listPath}${encodeURIComponent(id)}/` : undefined;
  const got = useAsync(async () => {
    const [opts, current] = await Promise.all([
      loadOptions(objPath ?? resource.listPath),
      objPath ? request('GET', objPath) : null,
    ]);
    return {
      fields: (objPath ? opts?.actions?.PUT : opts?.actions?.POST) ?? null,
      current: current?.ok ? current.body : null,
    };
  }, [resource.listPath, objPath]);
  const [values, setValues] = useState<Values | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState('');
  if (!got.data) return html`<${Loading} error=${got.error} />`;
  const { fields, current } = got.data;
  if (!fields) {
    const refused = `This token may not ${id ? 'change' : 'add'} ${resource.title.toLowerCase()}.`;
    return html`<${Message} kind="error">${refused}</${Message}>`;
  }
  const writable = Object.entries(fields).filter(([, m]) => !m.read_only);
  const vals: Values =
    values ??
    Object.fromEntries(
      writable.map(([n, m]) => [n, initial(m, current?.[n] ?? (m.type === 'choice' && !current ? '' : undefined))]),
    );
  const set = (name: string, v: string | boolean) => setValues({ ...vals, [name]: v });
  const submit = async (e: Event) => {
    e.preventDefault();
    const body: Record<string, unknown> = {};
    const local: Record<string, string[]> = {};
    for (const [name, meta] of writable) {
      if (current && initial(meta, current[name]) === vals[name]) continue; // PATCH only what changed
      if (!current && (vals[name] === '' || vals[name] === false) && !meta.required) continue;
      const { value, error } = toValue(meta, vals[name], integerRef(name));
      if (error) local[name] = [error];
      else body[name] = value;
    }
    setErrors(local);
    if (Object.keys(local).length) return;
    const r = await request(current ? 'PATCH' : 'POST', objPath ?? resource.listPath, { body });
    if (r.ok) {
      go(`/${resource.key}/${r.body.id}`);
      return;
    }
    if (r.status === 400 && r.body && typeof r.body === 'object' && !r.body.detail) setErrors(r.body);
    setFailure(errorText(r));
  };
  const colRef = (name: string) => resource.columns.find((c) => c.name === name)?.ref;
  // A target the catalog lacks is taken to share the store's style (this resource's).
  const integerRef = (name: string) => (resourceOfSchema(catalog, colRef(name) ?? '') ?? resource).integerIds;
  const control = (name: string, meta: FieldMeta, v: string | boolean) =>
    fieldControl(
      `field-${name}`,
      meta,
      v,
      (x) => set(name, x),
      () => resourceOfSchema(catalog, colRef(name) ?? ''),
    );
  return html`<div class="page form-page">
    <p class="crumbs">
      <a href=${`#/${resource.key}`}>${resource.title}</a
      >${current ? html` / <a href=${`#/${resource.key}/${id}`}>${current.display}</a>` : null}
    </p>
    <h1>
      ${current ? `Edit ${resource.label.toLowerCase()} ${current.display}` : `Add ${resource.label.toLowerCase()}`}
    </h1>
    <form class="card object-form" aria-label=${`${resource.label} form`} onSubmit=${submit}>
      ${writable.map(([name, meta]) => fieldRow(name, meta, vals[name], errors[name], control))}
      ${failure ? html`<${Message} kind="error">${failure}</${Message}>` : null}
      <button type="submit">${current ? 'Save' : 'Create'}</button>
    </form>
  </div>`;
}

/** One field of the form: its label, control, hint and the API's messages about it. */
function fieldRow(
  name: string,
  meta: FieldMeta,
  v: string | boolean,
  errors: string[] | undefined,
  control: (name: string, meta: FieldMeta, v: string | boolean) => unknown,
) {
  const fid = `field-${name}`;
  const hint = meta.type === 'list' ? html`<small class="hint">comma-separated</small>` : null;
  const messages = errors ? html`<small class="field-error" role="alert">${[errors].flat().join(' ')}</small>` : null;
  return html`<div class=${`field${errors ? ' field-bad' : ''}`}>
    <label for=${fid}>${meta.label}${meta.required ? ' *' : ''}</label>${control(name, meta, v)}${hint}${messages}
  </div>`;
}

/** The control of a field's type; `target`: the resource a foreign key names (looked up when one is). */
function fieldControl(
  fid: string,
  meta: FieldMeta,
  v: string | boolean,
  set: (v: string | boolean) => void,
  target: () => Resource | undefined,
) {
  return meta.type === 'choice'
    ? html`<select id=${fid} value=${String(v)} onChange=${(e: any) => set(e.target.value)}>
        <option value="">${meta.required ? '(choose)' : '(default)'}</option>
        ${meta.choices!.map((c) => html`<option value=${c.value} selected=${c.value === v}>${c.display}</option>`)}
      </select>`
    : meta.type === 'field'
      ? html`<${FkSelect}
          id=${fid}
          target=${target()}
          value=${String(v)}
          required=${meta.required}
          onChange=${(x: string) => set(x)}
        />`
      : meta.type === 'boolean'
        ? html`<input id=${fid} type="checkbox" checked=${!!v} onChange=${(e: any) => set(e.target.checked)} />`
        : meta.type === 'json' || meta.type === 'custom_fields'
          ? html`<textarea id=${fid} rows="3" value=${String(v)} onInput=${(e: any) => set(e.target.value)}></textarea>`
          : html`<input
              id=${fid}
              type=${meta.type === 'integer' ? 'number' : 'text'}
              value=${String(v)}
              required=${meta.required}
              maxLength=${meta.max_length}
              onInput=${(e: any) => set(e.target.value)}
            />`;
}
