// Named places on the write path where a test makes a real failure happen (a connection dropped
// with COMMIT in flight, a pool held by others, an answer that cannot be built): how "2xx if and
// only if committed" is proven on every backend. Nothing arms them outside tests; an unarmed point
// costs one map lookup.

export type FaultPoint =
  /** A database transaction's COMMIT was just sent on this connection; `drop` closes its socket. */
  | 'commit-sent'
  /** The same for a write committed by its single statement (no BEGIN / COMMIT of its own). */
  | 'statement-sent'
  /** A write batch has committed; the answer is not built yet. */
  | 'after-commit'
  /** A committed write's answer is being built. */
  | 'answer';

export interface FaultArgs {
  /** Closes the connection the write is on (commit-sent, statement-sent). */
  readonly drop?: () => void;
}

type Fault = (args: FaultArgs) => void | Promise<void>;

const armed = new Map<FaultPoint, Fault>();

/** Runs `fault` at `point` from now on (`times` times, default every time); the returned function disarms it. */
export function armFault(point: FaultPoint, fault: Fault, times = Infinity): () => void {
  let left = times;
  const once: Fault = (args) => {
    if (--left <= 0) armed.delete(point);
    return fault(args);
  };
  armed.set(point, once);
  return () => { if (armed.get(point) === once) armed.delete(point); };
}

/** Called by the write path at `point`: the armed fault, if any (it may throw). */
export function faultAt(point: FaultPoint, args: FaultArgs = {}): void | Promise<void> {
  return armed.get(point)?.(args);
}
