// What differs between the databases is the dialects' to say (engine/sql/dialects/): a test of which
// database a dialect is, an engine spelled out or a placeholder written by hand anywhere else fails
// here. A difference goes into the Dialect interface as data or a member; statement text goes
// through SqlBuilder.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoPath } from '../../support/paths.js';

const ROOT = repoPath('');
const DIALECTS = path.join('engine', 'sql', 'dialects') + path.sep;

/** Every TypeScript source file below `dir` (relative to the root). */
function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return sources(rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

const SOURCE = ['engine', 'storage', 'app', 'server', 'bench', 'tools']
  .flatMap(sources)
  .filter((f) => !f.startsWith(DIALECTS));

const RULES: readonly { readonly what: string; readonly pattern: RegExp; readonly except?: readonly string[] }[] = [
  {
    what: 'a dialect name compared',
    pattern: /\.name\s*[!=]==?\s*['"](postgres|mysql)['"]|['"](postgres|mysql)['"]\s*[!=]==?\s*[\w.]*\.name\b/,
  },
  {
    what: 'a table keyed by dialect name',
    pattern: /Dialect\[['"]name['"]\]|\b[A-Z][A-Z_]+\[\s*(this\.)?(d|dialect)\.name\s*\]/,
  },
  { what: 'a MySQL engine spelled out', pattern: /ENGINE\s*=\s*InnoDB/i },
  {
    what: 'a placeholder written by hand',
    pattern: /\.placeholder\(/,
    except: [path.join('engine', 'sql', 'sql-builder.ts')],
  },
];

describe('dialects own every database difference', () => {
  it('reads the source tree', () => {
    assert.ok(SOURCE.length > 100, `only ${SOURCE.length} source files found under ${ROOT}`);
    assert.ok(SOURCE.includes(path.join('engine', 'sql', 'ddl.ts')));
  });

  for (const rule of RULES) {
    it(`${rule.what}: nowhere outside engine/sql/dialects/`, () => {
      const hits = SOURCE.filter((f) => !rule.except?.includes(f)).flatMap((f) =>
        fs
          .readFileSync(path.join(ROOT, f), 'utf8')
          .split('\n')
          .flatMap((line, i) => (rule.pattern.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
      );
      assert.deepEqual(hits, [], `${rule.what} outside engine/sql/dialects/:\n${hits.join('\n')}`);
    });
  }
});
