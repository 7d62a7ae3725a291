// Command-line arguments of the npm scripts, read against one table per command: the same table
// gives the usage text (`--help`) and the checks, so a flag cannot be accepted without being
// documented, and an unknown or misspelt flag is an error rather than a run with defaults.

export interface FlagSpec {
  /** Without the leading dashes: `prefixes` is given as `--prefixes N` or `--prefixes=N`. */
  readonly name: string;
  /** `flag`: present or not; `integer`/`number`: checked against min/max; `list`: comma-separated. */
  readonly type: 'flag' | 'string' | 'integer' | 'number' | 'list';
  /** The value when the flag is absent (shown in the usage text). */
  readonly default?: string;
  /** The allowed values (of each item, for a list). */
  readonly choices?: readonly string[];
  /** A list of whole numbers (each checked against min/max). */
  readonly items?: 'integer';
  readonly min?: number;
  readonly max?: number;
  /** The value's name in the usage text (N, FILE, URL …). */
  readonly value?: string;
  readonly help: string;
}

export interface PositionalSpec {
  readonly name: string;
  readonly help: string;
  readonly optional?: true;
}

export interface CliSpec {
  /** How the user runs it, e.g. `npm run bench:data --`. */
  readonly command: string;
  readonly summary: string;
  readonly positionals?: readonly PositionalSpec[];
  readonly flags: readonly FlagSpec[];
  /** Environment variables it reads, for the usage text. */
  readonly env?: readonly { readonly name: string; readonly help: string }[];
}

export type ArgValue = string | number | boolean | readonly string[];

export type ParsedArgs =
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'ok'; readonly values: Args };

/** The parsed values, read by flag name; every flag of the table has one (its default when absent). */
export class Args {
  constructor(
    private readonly values: ReadonlyMap<string, ArgValue | undefined>,
    readonly positionals: readonly string[],
    private readonly explicit: ReadonlySet<string>,
  ) {}

  private get(name: string): ArgValue | undefined {
    if (!this.values.has(name)) throw new Error(`no flag --${name} in the command's table`);
    return this.values.get(name);
  }
  flag(name: string): boolean {
    return this.get(name) === true;
  }
  string(name: string): string {
    return (this.get(name) as string | undefined) ?? '';
  }
  number(name: string): number {
    return this.get(name) as number;
  }
  list(name: string): readonly string[] {
    return (this.get(name) as readonly string[] | undefined) ?? [];
  }
  /** Was the flag given (rather than left at its default)? */
  given(name: string): boolean {
    this.get(name);
    return this.explicit.has(name);
  }
}

const HELP: FlagSpec = { name: 'help', type: 'flag', help: 'print this text and exit' };

function placeholder(f: FlagSpec): string {
  if (f.type === 'flag') return '';
  if (f.value) return ` ${f.value}`;
  if (f.choices) return ` ${f.choices.join(f.type === 'list' ? ',' : '|')}`;
  return f.type === 'integer' || f.type === 'number' ? ' N' : f.type === 'list' ? ' A,B' : ' VALUE';
}

export function usage(spec: CliSpec): string {
  const pos = (spec.positionals ?? []).map((p) => (p.optional ? `[<${p.name}>]` : `<${p.name}>`));
  const lines = [
    `usage: ${spec.command} ${[...pos, spec.flags.length ? '[options]' : ''].filter(Boolean).join(' ')}`.trimEnd(),
    '',
    spec.summary,
  ];
  const rows = (title: string, items: readonly [string, string][]) => {
    if (!items.length) return;
    const width = Math.max(...items.map(([l]) => l.length)) + 2;
    lines.push('', title, ...items.map(([l, h]) => `  ${l.padEnd(width)}${h}`));
  };
  rows(
    'arguments:',
    (spec.positionals ?? []).map((p) => [`<${p.name}>`, p.help]),
  );
  rows(
    'options:',
    [...spec.flags, HELP].map((f) => [
      `${f === HELP ? '-h, ' : ''}--${f.name}${placeholder(f)}`,
      `${f.help}${f.default !== undefined && f.default !== '' ? ` (default ${f.default})` : ''}`,
    ]),
  );
  rows(
    'environment:',
    (spec.env ?? []).map((e) => [e.name, e.help]),
  );
  return lines.join('\n');
}

/** One value checked against its row: the value, or the message naming the flag. */
function value(f: FlagSpec, raw: string): ArgValue | { error: string } {
  const bad = (why: string) => ({ error: `--${f.name} ${why}, got "${raw}"` });
  const bounds = () =>
    f.min !== undefined && f.max !== undefined
      ? ` from ${f.min} to ${f.max}`
      : f.min !== undefined
        ? ` of at least ${f.min}`
        : f.max !== undefined
          ? ` of at most ${f.max}`
          : '';
  const inRange = (n: number) => (f.min === undefined || n >= f.min) && (f.max === undefined || n <= f.max);
  switch (f.type) {
    case 'flag':
      return true;
    case 'integer':
    case 'number': {
      const n = raw.trim() === '' ? NaN : Number(raw);
      const ok = (f.type === 'integer' ? Number.isInteger(n) : Number.isFinite(n)) && inRange(n);
      return ok ? n : bad(`must be a ${f.type === 'integer' ? 'whole number' : 'number'}${bounds()}`);
    }
    case 'list': {
      const items = raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const wrong = f.choices ? items.filter((i) => !f.choices!.includes(i)) : [];
      if (!items.length) return bad('needs at least one value');
      if (f.items === 'integer' && !items.every((i) => /^-?\d+$/.test(i) && inRange(Number(i))))
        return bad(`takes whole numbers${bounds()}, comma-separated`);
      return wrong.length ? bad(`takes ${f.choices!.join(', ')} (comma-separated): not ${wrong.join(', ')}`) : items;
    }
    case 'string':
      return f.choices && !f.choices.includes(raw) ? bad(`must be one of ${f.choices.join(', ')}`) : raw;
  }
}

/** Every problem of the arguments is named at once (one line); `--help` anywhere wins. */
export function parseArgs(spec: CliSpec, argv: readonly string[]): ParsedArgs {
  if (argv.some((a, i) => (a === '-h' || a === '--help') && !argv.slice(0, i).includes('--')))
    return { kind: 'help', text: usage(spec) };
  const byName = new Map(spec.flags.map((f) => [f.name, f]));
  const values = new Map<string, ArgValue | undefined>();
  const explicit = new Set<string>();
  const positionals: string[] = [];
  const problems: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = a.startsWith('--') ? a.slice(2, eq < 0 ? undefined : eq) : '';
    const f = byName.get(name);
    if (!f) {
      problems.push(`unknown option ${eq < 0 ? a : a.slice(0, eq)}`);
      continue;
    }
    let raw = '';
    if (f.type === 'flag') {
      if (eq >= 0) {
        problems.push(`--${name} takes no value`);
        continue;
      }
    } else if (eq >= 0) raw = a.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) raw = argv[++i];
    else {
      problems.push(`--${name} needs a value${placeholder(f)}`);
      continue;
    }
    const v = value(f, raw);
    if (typeof v === 'object' && 'error' in v) {
      problems.push(v.error);
      continue;
    }
    values.set(name, v);
    explicit.add(name);
  }
  for (const f of spec.flags) {
    if (values.has(f.name)) continue;
    if (f.type === 'flag') {
      values.set(f.name, false);
      continue;
    }
    if (f.default === undefined) {
      values.set(f.name, undefined);
      continue;
    }
    const v = value(f, f.default);
    if (typeof v === 'object' && 'error' in v) throw new Error(`the default of --${f.name}: ${v.error}`);
    values.set(f.name, v);
  }
  const want = spec.positionals ?? [];
  const missing = want.filter((p, i) => !p.optional && positionals[i] === undefined);
  if (missing.length) problems.push(`missing ${missing.map((p) => `<${p.name}>`).join(' ')}`);
  if (positionals.length > want.length) problems.push(`unexpected argument "${positionals[want.length]}"`);
  if (problems.length) return { kind: 'error', message: `${problems.join('; ')} (--help lists the options)` };
  return { kind: 'ok', values: new Args(values, positionals, explicit) };
}
