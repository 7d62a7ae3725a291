// Failed logins slow further tries, per username and per client address: after FREE failures a key
// is refused for a window that doubles with each further failure (up to MAX_WAIT_MS), and a success
// clears the user's and the address's count. The tables are bounded LRU caches (entries forgotten
// an hour after their last failure), so guessing names or spreading over addresses cannot grow them.
import { LRUCache } from 'lru-cache';

const FREE = 3;
const FIRST_WAIT_MS = 1000;
const MAX_WAIT_MS = 60_000;
const MAX_KEYS = 10_000;

interface Failures {
  readonly count: number;
  readonly until: number; // no try before this time (ms since the epoch)
}

export class LoginThrottle {
  private readonly failures = new LRUCache<string, Failures>({ max: MAX_KEYS, ttl: 3_600_000 });

  constructor(private readonly now: () => number = Date.now) {}

  /** How long (ms) the caller must wait before another try of `username` from `address`; 0: try now. */
  wait(username: string, address: string): number {
    const t = this.now();
    return Math.max(0, ...this.keys(username, address).map((k) => (this.failures.get(k)?.until ?? 0) - t));
  }

  failed(username: string, address: string): void {
    for (const k of this.keys(username, address)) {
      const count = (this.failures.get(k)?.count ?? 0) + 1;
      const wait = count <= FREE ? 0 : Math.min(MAX_WAIT_MS, FIRST_WAIT_MS * 2 ** (count - FREE - 1));
      this.failures.set(k, { count, until: this.now() + wait });
    }
  }

  succeeded(username: string, address: string): void {
    for (const k of this.keys(username, address)) this.failures.delete(k);
  }

  /** Entries kept (the bound's test). */
  get size(): number {
    return this.failures.size;
  }

  private keys(username: string, address: string): string[] {
    return [`u\u0000${username.toLowerCase()}`, `a\u0000${address}`];
  }
}
