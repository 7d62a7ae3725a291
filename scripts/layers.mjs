// Dependencies point one way (DESIGN.md, docs/architecture.md): server -> app -> storage -> engine.
// Each source folder may import from the folders its row lists; engine may not load a module that
// does I/O. bench/, tools/ and the tests stand outside the layers and may import any of them.
// Plain JavaScript: it runs before anything is compiled.
import fs from 'node:fs';
import path from 'node:path';

/** What each layer may import from, besides itself. */
export const MAY_IMPORT = {
  engine: [],
  storage: ['engine'],
  app: ['engine', 'storage'],
  server: ['engine', 'storage', 'app'],
  ui: ['engine'],
};
/** Modules the pure engine may not load (I/O, drivers, HTTP). */
const ENGINE_FORBIDDEN =
  /^(node:)?(fs|fs\/promises|net|http|https|dns|dns\/promises|child_process|tls|dgram)$|^(pg|mysql2|express)(\/|$)/;
const IMPORT = /(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g;

/** Places where an import runs against the layers: ["file:line: what"]. */
export function layerProblems(root, files) {
  const out = [];
  for (const file of files) {
    const layer = file.split('/')[0];
    if (!(layer in MAY_IMPORT) || file.startsWith('ui/test/')) continue;
    const allowed = new Set([layer, ...MAY_IMPORT[layer]]);
    const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const m of line.matchAll(IMPORT)) {
        const spec = m[1];
        if (spec.startsWith('.')) {
          const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).split('/')[0];
          if (!allowed.has(target))
            out.push(`${file}:${i + 1}: ${layer}/ imports ${target}/ ('${spec}'), against the layers`);
        } else if (layer === 'engine' && ENGINE_FORBIDDEN.test(spec)) {
          out.push(`${file}:${i + 1}: engine/ loads '${spec}': the engine does no I/O`);
        }
      }
    });
  }
  return out;
}
