// Date-times as milliseconds: an ISO text of the form `toISOString` writes is 8 bytes here instead
// of a 24-character string per row. Any other value is kept as given beside the numbers.
import { OTHER, PACKED, resized, type Column } from './column.js';

export class DateColumn implements Column {
  private ms = new Float64Array(0);
  private state = new Uint8Array(0);
  private readonly other = new Map<number, unknown>();
  // Bulk loads and pages repeat the same instants: one remembered conversion each way.
  private lastText = '';
  private lastMs = NaN;
  private lastOutMs = NaN;
  private lastOut = '';

  resize(capacity: number): void {
    this.ms = resized(this.ms, capacity);
    this.state = resized(this.state, capacity);
  }

  set(slot: number, value: unknown): void {
    this.clear(slot);
    if (value === undefined) return;
    const ms = this.toMs(value);
    if (ms === null) { this.state[slot] = OTHER; this.other.set(slot, value); return; }
    this.state[slot] = PACKED;
    this.ms[slot] = ms;
  }

  clear(slot: number): void {
    if (this.state[slot] === OTHER) this.other.delete(slot);
    this.state[slot] = 0;
  }

  get(slot: number): unknown {
    switch (this.state[slot]) {
      case PACKED: {
        const ms = this.ms[slot];
        if (ms !== this.lastOutMs) { this.lastOut = new Date(ms).toISOString(); this.lastOutMs = ms; }
        return this.lastOut;
      }
      case OTHER: return this.other.get(slot);
      default: return undefined;
    }
  }

  /** Milliseconds of a text that formats back to itself, else null. */
  private toMs(value: unknown): number | null {
    if (typeof value !== 'string' || value.length !== 24) return null;
    if (value === this.lastText) return this.lastMs;
    const ms = Date.parse(value);
    if (Number.isNaN(ms) || new Date(ms).toISOString() !== value) return null;
    this.lastText = value;
    this.lastMs = ms;
    return ms;
  }
}
