// A small metrics registry written as the Prometheus text exposition format, version 0.0.4:
// counters, gauges and histograms with labels. A labelled series is a child made once (`child()`
// joins its label values to a key only then): the code that records keeps the child and pays a
// number update per observation, no string work. Gauges read at scrape time come from collectors.
//
// Format (https://prometheus.io/docs/instrumenting/exposition_formats/): per family a `# HELP` and
// a `# TYPE` line, then one line per sample, `name{label="value",…} number`; label values escape
// `\`, `"` and newlines, HELP text `\` and newlines; numbers may be `NaN`, `+Inf`, `-Inf`.

export const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const NAME_RE = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_RE = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

const escapeHelp = (s: string): string => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
export const escapeLabelValue = (s: string): string =>
  s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

export function formatNumber(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}

/** `{a="x",b="y"}` (or nothing without labels), written once per series. */
function labelText(names: readonly string[], values: readonly string[]): string {
  if (!names.length) return '';
  return `{${names.map((n, i) => `${n}="${escapeLabelValue(values[i])}"`).join(',')}}`;
}

interface Family {
  readonly name: string;
  /** The family's lines: HELP, TYPE, samples. */
  render(): string;
}

abstract class Metric<Child> implements Family {
  protected readonly children = new Map<string, { labels: string; child: Child }>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    private readonly type: string,
  ) {
    if (!NAME_RE.test(name)) throw new Error(`metrics: bad metric name ${name}`);
    for (const l of labelNames)
      if (!LABEL_RE.test(l) || l.startsWith('__') || l === 'le')
        throw new Error(`metrics: bad label name ${l} on ${name}`);
  }

  /** The series with these label values (in labelNames order): made at its first use, then the same object. */
  child(...values: string[]): Child {
    if (values.length !== this.labelNames.length)
      throw new Error(`metrics: ${this.name} takes labels ${this.labelNames.join(', ')}`);
    const key = values.join('\u0000');
    let c = this.children.get(key);
    if (!c) {
      c = { labels: labelText(this.labelNames, values), child: this.make() };
      this.children.set(key, c);
    }
    return c.child;
  }

  protected abstract make(): Child;
  protected abstract samples(labels: string, child: Child, out: string[]): void;

  render(): string {
    const out = [`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} ${this.type}`];
    for (const { labels, child } of this.children.values()) this.samples(labels, child, out);
    return out.join('\n');
  }
}

export class CounterChild {
  value = 0;
  inc(by = 1): void {
    this.value += by;
  }
}

export class Counter extends Metric<CounterChild> {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    if (!name.endsWith('_total')) throw new Error(`metrics: counter ${name} must end in _total`);
    super(name, help, labelNames, 'counter');
  }
  protected make(): CounterChild {
    return new CounterChild();
  }
  protected samples(labels: string, c: CounterChild, out: string[]): void {
    out.push(`${this.name}${labels} ${formatNumber(c.value)}`);
  }
}

export class GaugeChild {
  value = 0;
  set(v: number): void {
    this.value = v;
  }
}

export class Gauge extends Metric<GaugeChild> {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, labelNames, 'gauge');
  }
  protected make(): GaugeChild {
    return new GaugeChild();
  }
  protected samples(labels: string, g: GaugeChild, out: string[]): void {
    out.push(`${this.name}${labels} ${formatNumber(g.value)}`);
  }
  /** Forget every series (a gauge whose source went away is then absent, not stale). */
  clear(): void {
    this.children.clear();
  }
}

export class HistogramChild {
  /** Observations per bucket (not cumulative; the last slot is past the largest bound). */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(private readonly bounds: Float64Array) {
    this.counts = new Float64Array(bounds.length + 1);
  }
  observe(v: number): void {
    const b = this.bounds;
    let i = 0;
    while (i < b.length && v > b[i]) i++;
    this.counts[i]++;
    this.sum += v;
    this.count++;
  }
}

/** Prometheus' client defaults, from 1 ms to 10 s. */
export const SECONDS_BUCKETS: readonly number[] = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

export class Histogram extends Metric<HistogramChild> {
  private readonly bounds: Float64Array;
  private readonly le: readonly string[];

  constructor(name: string, help: string, labelNames: readonly string[], buckets: readonly number[] = SECONDS_BUCKETS) {
    super(name, help, labelNames, 'histogram');
    const bad = !buckets.length || buckets.some((b, i) => !Number.isFinite(b) || (i > 0 && b <= buckets[i - 1]));
    if (bad) throw new Error(`metrics: ${name}: buckets must be finite and increasing`);
    this.bounds = Float64Array.from(buckets);
    this.le = [...buckets.map(formatNumber), '+Inf'];
  }

  protected make(): HistogramChild {
    return new HistogramChild(this.bounds);
  }

  protected samples(labels: string, h: HistogramChild, out: string[]): void {
    // `le` joins the series' own labels: `{method="GET",le="0.1"}`, or `{le="0.1"}` without labels.
    const open = labels ? `${labels.slice(0, -1)},` : '{';
    let running = 0;
    for (let i = 0; i < this.le.length; i++) {
      running += h.counts[i];
      out.push(`${this.name}_bucket${open}le="${this.le[i]}"} ${formatNumber(running)}`);
    }
    out.push(
      `${this.name}_sum${labels} ${formatNumber(h.sum)}`,
      `${this.name}_count${labels} ${formatNumber(h.count)}`,
    );
  }
}

/** Families in the order registered; collectors run before each rendering (gauges read at scrape time). */
export class Registry {
  private readonly families = new Map<string, Family>();
  private readonly collectors: (() => void | Promise<void>)[] = [];

  register<F extends Family>(f: F): F {
    if (this.families.has(f.name)) throw new Error(`metrics: ${f.name} registered twice`);
    this.families.set(f.name, f);
    return f;
  }

  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    return this.register(new Counter(name, help, labelNames));
  }
  gauge(name: string, help: string, labelNames: readonly string[] = []): Gauge {
    return this.register(new Gauge(name, help, labelNames));
  }
  histogram(name: string, help: string, labelNames: readonly string[], buckets?: readonly number[]): Histogram {
    return this.register(new Histogram(name, help, labelNames, buckets));
  }

  collect(fn: () => void | Promise<void>): void {
    this.collectors.push(fn);
  }

  /** The exposition text (ends with a newline). A family without series still shows HELP and TYPE. */
  async text(): Promise<string> {
    for (const c of this.collectors) await c();
    return `${[...this.families.values()].map((f) => f.render()).join('\n')}\n`;
  }
}
