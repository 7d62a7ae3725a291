// The `memory:/dir` snapshot's line format of earlier releases (snapshot.jsonl), read at the first
// start of this release and replaced by the column snapshot (column-snapshot.ts); the writer stays
// to make such files in tests. A first line `{"snapshot":2}`, then per run of rows of one
// resource with the same fields a header line `{"resource":"prefix","fields":["id",…]}` and one JSON
// array of values per row. Without the keys on every row the file is ~40% smaller and parses in
// about half the time (JSON.parse of arrays; 1M prefixes), which is most of a restart.
// A field whose value is undefined is left out of the header, so a row reads back with the same keys.
// The previous format (no first line; one `["resource",{row}]` line per row) is still read.
import type { Row } from '../types.js';

export const SNAPSHOT_MARK = '{"snapshot":2}';

/** `rows`: how many rows of the resource follow, this run and later ones (a reader reserves room once). */
interface Header {
  readonly resource: string;
  readonly fields: readonly string[];
  readonly rows?: number;
}

/** One resource's rows as compaction writes them. */
export interface SnapshotTable {
  readonly resource: string;
  readonly size: number;
  readonly rows: Iterable<Row>;
}

/** What a reader is given: rows, and a resource's row count ahead of its rows when the file says it. */
export interface SnapshotVisitor {
  row(resource: string, row: Row): void;
  reserve(resource: string, count: number): void;
}

/** The lines of a snapshot of `tables`, each with its line end, in order (as earlier releases wrote them). */
export function* snapshotLines(tables: Iterable<SnapshotTable>): Generator<string> {
  yield SNAPSHOT_MARK + '\n';
  for (const { resource, size, rows } of tables) {
    let fields: string[] | null = null,
      written = 0;
    for (const row of rows) {
      const keys = Object.keys(row).filter((k) => row[k] !== undefined);
      if (!fields || !sameKeys(keys, fields)) {
        fields = keys;
        yield JSON.stringify({ resource, fields, rows: Math.max(0, size - written) } satisfies Header) + '\n';
      }
      yield JSON.stringify(fields.map((k) => row[k])) + '\n';
      written++;
    }
  }
}

const sameKeys = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((k, i) => k === b[i]);

/** Plain identifiers can be object-literal keys in a compiled builder; anything else is set one by one. */
const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Makes rows of one header's values: a compiled object literal gives every row one shape, ~3x faster than a loop. */
function rowBuilder(fields: readonly string[]): (values: readonly unknown[]) => Row {
  if (fields.every((f) => PLAIN_KEY.test(f) && f !== '__proto__'))
    return new Function('v', `return {${fields.map((f, i) => `${f}: v[${i}]`).join(', ')}};`) as (
      values: readonly unknown[],
    ) => Row;
  return (values) => {
    const row = {} as Row;
    fields.forEach((f, i) =>
      Object.defineProperty(row, f, { value: values[i], enumerable: true, writable: true, configurable: true }),
    );
    return row;
  };
}

/** Reads snapshot lines (parsed JSON values, in order) of either format into (resource, row) visits. */
export class SnapshotReader {
  private state: 'start' | 'v2' | 'v1' = 'start';
  private resource = '';
  private build: ((values: readonly unknown[]) => Row) | null = null;

  constructor(private readonly visit: SnapshotVisitor) {}

  /** Is a file starting with these bytes in the previous format (worth rewriting)? */
  static isPrevious(head: string): boolean {
    return head.length > 0 && !head.startsWith(SNAPSHOT_MARK);
  }

  line(value: unknown): void {
    if (this.state === 'start') {
      this.state = isMark(value) ? 'v2' : 'v1';
      if (this.state === 'v2') return;
    }
    if (this.state === 'v1') {
      const [resource, row] = value as [string, Row];
      this.visit.row(resource, row);
    } else if (Array.isArray(value)) {
      if (!this.build) throw new Error('snapshot row before any header');
      this.visit.row(this.resource, this.build(value));
    } else {
      const h = value as Header;
      if (typeof h?.resource !== 'string' || !Array.isArray(h.fields))
        throw new Error('snapshot line is neither a header nor a row');
      if (this.resource !== h.resource && typeof h.rows === 'number' && h.rows > 0)
        this.visit.reserve(h.resource, h.rows);
      this.resource = h.resource;
      this.build = rowBuilder(h.fields);
    }
  }
}

const isMark = (v: unknown) =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && (v as { snapshot?: unknown }).snapshot === 2;
