// The comparisons a lookup names and the value types it compares as. The catalogue's rows carry
// them and plan nodes (engine/plan/nodes.ts) take them over, so they live below both.

export type CmpOp = 'eq' | 'lt' | 'lte' | 'gt' | 'gte' | 'contains' | 'startswith' | 'endswith' | 'regex';

/** How values compare: text, numbers, or ISO-8601 UTC date-times (compared as instants). */
export type ValueType = 'string' | 'number' | 'boolean' | 'datetime';
