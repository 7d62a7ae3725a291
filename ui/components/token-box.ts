// The API token box: the key is kept in localStorage and checked with the API before it is called set.
import { useEffect, useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import { getToken, request, setToken } from '../lib/api.js';
import { forgetOptions } from '../lib/catalog.js';

/** Asks the API whether a token is known: 401 means refused; any other answer means it authenticates. */
export async function checkToken(): Promise<string> {
  if (!getToken()) return 'No token: API calls will be refused.';
  const r = await request('GET', '/api/users/tokens/?limit=1');
  if (r.status === 401) return `Token refused: ${r.body?.detail ?? 'unknown token'}.`;
  if (r.status === 0) return 'The API could not be reached.';
  return 'Token set.';
}

/** Keeps `key` as the token every API call sends (pasted or from a sign-in), and checks it. */
export async function keepToken(key: string): Promise<string> {
  setToken(key);
  forgetOptions(); // what OPTIONS answered depends on the token's permissions
  return checkToken();
}

export function TokenBox({ onSaved }: { onSaved: () => void }) {
  const [text, setText] = useState(getToken());
  const [status, setStatus] = useState(getToken() ? 'Checking the token…' : 'No token: API calls will be refused.');
  useEffect(() => {
    if (getToken()) void checkToken().then(setStatus);
  }, []); // a key kept from before is checked too
  const submit = async (e: Event) => {
    e.preventDefault();
    setStatus('Checking the token…');
    setStatus(await keepToken(text.trim()));
    onSaved();
  };
  return html`<form class="token" autocomplete="off" onSubmit=${submit}>
    <label for="token-input">API token</label>
    <input
      id="token-input"
      name="token"
      type="password"
      autocomplete="off"
      spellcheck=${false}
      placeholder="paste a token key"
      value=${text}
      onInput=${(e: any) => setText(e.target.value)}
    />
    <button type="submit">Save token</button>
    <span id="token-status" role="status">${status}</span>
  </form>`;
}
