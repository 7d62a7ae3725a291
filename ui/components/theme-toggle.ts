// Light or dark: the system's choice until the user picks one, then kept in localStorage.
import { useEffect, useState } from 'preact/hooks';
import { html } from '../lib/html.js';

const KEY = 'netinv.theme';

function stored(): string {
  try {
    return localStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

export function ThemeToggle() {
  const system = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  const [theme, setTheme] = useState(stored() || system);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, []);
  const flip = () => {
    const next = theme === 'dark' ? 'light' : 'dark';
    try {
      localStorage.setItem(KEY, next);
    } catch {
      /* kept for this page only */
    }
    document.documentElement.dataset.theme = next; // at once: the next paint already has the colours
    setTheme(next);
  };
  return html`<button type="button" class="small theme-toggle" onClick=${flip} aria-pressed=${theme === 'dark'}>
    Dark theme
  </button>`;
}
