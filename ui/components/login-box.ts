// Sign in with a username and password (POST /api/users/tokens/provision/): the token the answer
// carries is kept as a pasted one is (token-box.ts); the password is sent once and never kept.
import { useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import { request } from '../lib/api.js';
import { keepToken } from './token-box.js';

export function LoginBox({ onSaved }: { onSaved: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [status, setStatus] = useState('');
  const submit = async (e: Event) => {
    e.preventDefault();
    setStatus('Signing in…');
    const r = await request('POST', '/api/users/tokens/provision/', {
      auth: false,
      body: { username: username.trim(), password, description: 'web UI sign-in' },
    });
    setPassword('');
    if (r.status !== 201 || typeof r.body?.key !== 'string') {
      setStatus(r.status === 0 ? 'The API could not be reached.' : `Sign-in refused: ${r.body?.detail ?? r.status}.`);
      return;
    }
    // A v2 token (API_TOKEN_PEPPERS set) is its key id and secret together: nbt_<key>.<token>.
    const credential = r.body.version === 2 ? `nbt_${r.body.key}.${r.body.token}` : r.body.key;
    setStatus(`Signed in as ${username.trim()}. ${await keepToken(credential)}`);
    onSaved();
  };
  return html`<form class="token login" autocomplete="on" onSubmit=${submit}>
    <label for="login-username">Username</label>
    <input
      id="login-username"
      name="username"
      autocomplete="username"
      value=${username}
      onInput=${(e: any) => setUsername(e.target.value)}
    />
    <label for="login-password">Password</label>
    <input
      id="login-password"
      name="password"
      type="password"
      autocomplete="current-password"
      value=${password}
      onInput=${(e: any) => setPassword(e.target.value)}
    />
    <button type="submit">Sign in</button>
    <span id="login-status" role="status">${status}</span>
  </form>`;
}
