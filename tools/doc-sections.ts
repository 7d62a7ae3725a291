// Generated parts of docs sit between `<!-- NAME:start -->` and `<!-- NAME:end -->` markers.
export function replaceSection(doc: string, name: string, generated: string): string {
  const start = `<!-- ${name}:start -->`,
    end = `<!-- ${name}:end -->`;
  const a = doc.indexOf(start),
    b = doc.indexOf(end);
  if (a < 0 || b < a) throw new Error(`document has no ${name} markers`);
  return `${doc.slice(0, a + start.length)}\n${generated}\n${doc.slice(b)}`;
}
