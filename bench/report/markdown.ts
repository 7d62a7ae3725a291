// Markdown pieces the report writes: a table from a header and rows, a link, an image.

export type Cell = string | number;

/** A GitHub table; `right` names the columns that hold figures (aligned right). */
export function table(
  head: readonly string[],
  rows: readonly (readonly Cell[])[],
  right: readonly number[] = [],
): string {
  const line = (cells: readonly Cell[]) => `| ${cells.map((c) => String(c).replace(/\|/g, '\\|')).join(' | ')} |`;
  const rule = `|${head.map((_, i) => (right.includes(i) ? '---:' : '---')).join('|')}|`;
  return [line(head), rule, ...rows.map(line)].join('\n');
}

/** Inline code, as a query or a flag is written in the prose. */
export const code = (s: string): string => `\`${s}\``;

export const image = (alt: string, src: string): string => `![${alt}](${src})`;
