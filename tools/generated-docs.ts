// Every generated doc in one list, computed in memory: the reference sections of docs/filtering.md and
// docs/resources.md (from the lookup catalogue and the registry), the measured section of
// docs/scale-out.md and the whole of docs/benchmarks.md with its charts (from the committed results
// files in bench/results/, never from a run). `npm run docs` writes them; test/docs/generated-docs.test.ts
// fails while a committed doc differs from what they give.
import fs from 'node:fs';
import path from 'node:path';
import { lookupReference } from '../engine/filters/lookup-doc.js';
import { resourceReference } from '../engine/schema/resource-doc.js';
import { constraintLookupReference, netboxNamesReference } from '../engine/permissions/constraint-doc.js';
import { renderFromRepo } from '../bench/report/doc.js';
import { scaleOutSection } from '../bench/report/scale-out-section.js';
import { loadSources, need } from '../bench/report/sources.js';
import { RESULTS_DIR } from '../bench/results-file.js';
import { replaceSection } from './doc-sections.js';

/** The source tree's root (this module runs from dist/tools/). */
export const ROOT = new URL('../../', import.meta.url);

/** A generated section of a hand-written doc: the text between its `<!-- section:start/end -->` markers. */
const SECTIONS = [
  { file: 'docs/filtering.md', section: 'lookups', make: lookupReference },
  { file: 'docs/resources.md', section: 'resources', make: resourceReference },
  { file: 'docs/permission-constraints.md', section: 'constraint-lookups', make: constraintLookupReference },
  { file: 'docs/permission-constraints.md', section: 'constraint-names', make: netboxNamesReference },
  { file: 'docs/scale-out.md', section: 'scale-out', make: () => scaleOutSection(scaleOutResults()) },
] as const;

const scaleOutResults = () => need(loadSources(RESULTS_DIR), 'scale-out').data;

/** The folders whose .svg files are all generated: one not in the list is stale and removed. */
export const GENERATED_DIRS = ['docs/benchmarks'] as const;

export interface GeneratedDoc {
  /** Relative to the root, with forward slashes. */
  readonly file: string;
  readonly text: string;
}

/** Every generated doc's whole text as `npm run docs` writes it, from what the tree holds now. */
export function generatedDocs(root: URL = ROOT): GeneratedDoc[] {
  // A file with several sections gets them all, in one text.
  const files = [...new Set(SECTIONS.map((s) => s.file))];
  const out: GeneratedDoc[] = files.map((file) => ({
    file,
    text: SECTIONS.filter((s) => s.file === file).reduce(
      (doc, s) => replaceSection(doc, s.section, s.make()),
      fs.readFileSync(new URL(file, root), 'utf8'),
    ),
  }));
  const bench = renderFromRepo();
  out.push({ file: 'docs/benchmarks.md', text: bench.markdown });
  for (const [name, svg] of bench.charts) out.push({ file: `docs/benchmarks/${name}`, text: svg });
  return out;
}

/** The .svg files now in the generated folders, relative to the root. */
export function generatedDirFiles(root: URL = ROOT): string[] {
  return GENERATED_DIRS.flatMap((dir) =>
    fs
      .readdirSync(new URL(`${dir}/`, root))
      .filter((f) => f.endsWith('.svg'))
      .map((f) => `${dir}/${f}`),
  ).sort();
}

/** Writes every generated doc under `root` (removing stale charts): how many there are and which changed. */
export function writeGeneratedDocs(root: URL = ROOT): { count: number; changed: string[] } {
  const docs = generatedDocs(root);
  const wanted = new Set(docs.map((d) => d.file));
  const changed: string[] = [];
  for (const f of generatedDirFiles(root))
    if (!wanted.has(f)) {
      fs.rmSync(new URL(f, root));
      changed.push(f);
    }
  for (const d of docs) {
    const file = new URL(d.file, root);
    const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
    if (old === d.text) continue;
    fs.mkdirSync(path.dirname(file.pathname), { recursive: true });
    fs.writeFileSync(file, d.text);
    changed.push(d.file);
  }
  return { count: docs.length, changed };
}
