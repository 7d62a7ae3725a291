// Named places on the write path where a test makes a real failure happen (a connection dropped
// with COMMIT in flight, a pool held by others, an answer that cannot be built): how "2xx if and
// only if committed" is proven on every backend. Nothing arms them outside tests; an unarmed point
// costs one map lookup.

export type FaultPoint =
  /**
   * The statement that commits a write (a transaction's COMMIT, or a write committed by its single
   * statement) is about to be sent: `hold` keeps what is sent on this connection from leaving.
   */
  | 'commit-sending'
  /** ... it was just sent; `drop` closes the connection's socket (what `hold` kept is lost). */
  | 'commit-sent'
  /** A write batch has committed; the answer is not built yet. */
  | 'after-commit'
  /** A committed write's answer is being built. */
  | 'answer';

export interface FaultArgs {
  /** Closes the connection the write is on (commit-sent). */
  readonly drop?: () => void;
  /** Keeps what is written to the connection in this process (commit-sending). */
  readonly hold?: () => void;
}

type Fault = (args: FaultArgs) => void | Promise<void>;

const armed = new Map<FaultPoint, Fault>();

/**
 * Runs `fault` at `point` from now on, `times` times (default every time), only where `when` holds
 * (default everywhere: a test narrows it to its own request, as background writes pass the same
 * points). The returned function disarms it.
 */
export function armFault(
  point: FaultPoint,
  fault: Fault,
  opts: { readonly times?: number; readonly when?: () => boolean } = {},
): () => void {
  let left = opts.times ?? Infinity;
  const once: Fault = (args) => {
    if (opts.when && !opts.when()) return;
    if (--left <= 0) armed.delete(point);
    return fault(args);
  };
  armed.set(point, once);
  return () => {
    if (armed.get(point) === once) armed.delete(point);
  };
}

/** Called by the write path at `point`: the armed fault, if any (it may throw). */
export function faultAt(point: FaultPoint, args: FaultArgs = {}): void | Promise<void> {
  return armed.get(point)?.(args);
}
