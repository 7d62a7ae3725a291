// Hash routes: `#/ipam/prefixes?status=active` -> parts ['ipam', 'prefixes'] and the query pairs.
import { useEffect, useState } from 'preact/hooks';
import { fromSearch, toSearch, type Pair } from './query.js';

export interface Route {
  readonly parts: readonly string[];
  readonly pairs: readonly Pair[];
}

export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '');
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  return {
    parts: path
      .split('/')
      .filter(Boolean)
      .map((p) => {
        try {
          return decodeURIComponent(p);
        } catch {
          return p;
        }
      }),
    pairs: fromSearch(q < 0 ? '' : raw.slice(q + 1)),
  };
}

export function href(path: string, pairs: readonly Pair[] = []): string {
  const qs = toSearch(pairs);
  return `#${path}${qs ? `?${qs}` : ''}`;
}

export function go(path: string, pairs: readonly Pair[] = []): void {
  location.hash = href(path, pairs);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const on = () => setRoute(parseHash(location.hash));
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}
