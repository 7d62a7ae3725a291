// AST produced by the query lexer/parser stage. It carries no schema knowledge:
// the planner checks field/lookup names and value ranges against the schema later.

export type ValueKind =
  | 'null'
  | 'boolean'
  | 'integer'
  | 'decimal'
  | 'date'
  | 'datetime'
  | 'uuid'
  | 'ipv4'
  | 'ipv6'
  | 'cidr4'
  | 'cidr6'
  | 'text';

export interface ParsedValue {
  readonly raw: string;
  readonly kind: ValueKind;
}

export interface FilterTerm {
  readonly param: string; // the parameter name exactly as given, e.g. 'cf_rack_count__lt'
  readonly field: string; // 'rack_count' for cf terms, else the field name e.g. 'network'
  readonly cf: boolean;
  readonly lookup: string | null; // 'lt', 'net_contained', or null when absent
  readonly values: readonly ParsedValue[]; // in the order given; repeated parameters collected here
}

// offset: for key errors, the character offset inside the key where it went wrong;
// for value errors, the offset inside the value (4096 for an over-long value).
export interface ParseError {
  readonly param: string;
  readonly offset: number;
  readonly message: string;
}

export interface ParsedQuery {
  readonly terms: readonly FilterTerm[]; // one per distinct filter parameter name, order of first appearance
  readonly control: Readonly<Record<string, readonly string[]>>; // non-filter parameters
  readonly errors: readonly ParseError[];
}
