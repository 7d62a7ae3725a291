// Public surface of the query lexer/parser stage.
export type { ValueKind, ParsedValue, FilterTerm, ParseError, ParsedQuery } from './ast.js';
export type { ParsedKey, KeyResult } from './parse.js';
export { CONTROL_PARAMS, parseQuery, canonicalQueryKey, classifyValue, parseKey } from './parse.js';
