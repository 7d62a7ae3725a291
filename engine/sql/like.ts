// LIKE patterns from user text: the value is bound as a parameter and its own `%`, `_` and the
// escape character are escaped, so it matches literally. `!` rather than backslash as the escape
// character: backslash means something different in MySQL string literals depending on sql_mode.
export const LIKE_ESCAPE_CHAR = '!';

export function escapeLike(text: string): string {
  return text.replace(/[!%_]/g, (c) => LIKE_ESCAPE_CHAR + c);
}

export type LikeShape = 'contains' | 'startswith' | 'endswith';

export function likePattern(shape: LikeShape, text: string): string {
  const e = escapeLike(text);
  return shape === 'contains' ? `%${e}%` : shape === 'startswith' ? `${e}%` : `%${e}`;
}
