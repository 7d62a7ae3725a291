// Statement text is assembled here and nowhere else: fixed SQL text through `emit`, every value
// through `param` (a bound parameter). Nothing a user typed is ever appended with `emit`.

/** PostgreSQL type a parameter is cast to (MySQL placeholders carry no type). */
export type ParamType =
  | 'text'
  | 'uuid'
  | 'bigint'
  | 'integer'
  | 'int'
  | 'boolean'
  | 'timestamptz'
  | 'json'
  | 'jsonb'
  | 'inet'
  | 'cidr'
  | 'numeric';
export type ParamTypeOrArray = ParamType | `${ParamType}[]`;

export interface SqlText {
  readonly sql: string;
  readonly params: readonly unknown[];
}

export interface Placeholders {
  /** Placeholder text for the parameter at 1-based `index`. */
  placeholder(index: number, type: ParamTypeOrArray): string;
}

export class SqlBuilder {
  private text = '';
  readonly params: unknown[] = [];

  /** `base`: parameters already bound before this text (PostgreSQL numbers them). */
  constructor(
    private readonly ph: Placeholders,
    private readonly base = 0,
  ) {}

  emit(sql: string): this {
    this.text += sql;
    return this;
  }

  param(value: unknown, type: ParamTypeOrArray): this {
    this.params.push(value);
    this.text += this.ph.placeholder(this.base + this.params.length, type);
    return this;
  }

  /**
   * Renders an expression that carries parameters as text, for hooks taking an expression string.
   * Its parameters are bound now: the returned text must be emitted before any other parameter.
   */
  render(e: (b: SqlBuilder) => void): string {
    const sub = new SqlBuilder(this.ph, this.base + this.params.length);
    e(sub);
    this.params.push(...sub.params);
    return sub.text;
  }

  build(): SqlText {
    return { sql: this.text, params: this.params };
  }
}
