// Every .ts file under the folders tsconfig.json includes, relative to the root with forward slashes.
import fs from 'node:fs';
import path from 'node:path';

export function sourceFiles(root) {
  const config = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.json'), 'utf8'));
  const dirs = [...new Set((config.include ?? []).map((p) => p.split('/')[0]))];
  const out = [];
  const walk = (dir) => {
    let entries;
    try {
      entries = fs.readdirSync(path.join(root, dir), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(rel);
      } else if (e.name.endsWith('.ts')) out.push(rel);
    }
  };
  for (const d of dirs) walk(d);
  return out.sort();
}
