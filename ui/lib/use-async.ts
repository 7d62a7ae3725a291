// Loads data for a component and re-loads when its inputs change; a stale answer never overwrites a newer one.
import { useEffect, useState, useCallback, useRef } from 'preact/hooks';

export interface Async<T> {
  readonly data?: T;
  readonly error?: Error;
  readonly loading: boolean;
  readonly reload: () => void;
}

export function useAsync<T>(load: () => Promise<T>, deps: readonly unknown[]): Async<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const seq = useRef(0);
  const run = useCallback(() => {
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => {
        if (mine === seq.current) setState({ data, loading: false });
      },
      (error: Error) => {
        if (mine === seq.current) setState({ error, loading: false });
      },
    );
  }, deps); // eslint-style: the caller names what the load depends on
  useEffect(run, [run]);
  return { ...state, reload: run };
}
