// `npm run docs`: writes every generated doc (tools/generated-docs.ts lists them) from the
// registry, the lookup catalogue, bench/report/template.md and the committed results in bench/results/.
import { argsOrExit, type CliSpec } from '../storage/cli-args.js';
import { writeGeneratedDocs } from './generated-docs.js';

const DOCS_CLI: CliSpec = {
  command: 'npm run docs --',
  summary:
    "Writes every generated doc: the lookup and resource references, docs/scale-out.md's measured section, " +
    'docs/benchmarks.md and its charts (from the committed results files in bench/results/).',
  flags: [],
};
argsOrExit(DOCS_CLI);

const { count, changed } = writeGeneratedDocs();
console.log(`docs: ${count} generated files, ${changed.length} changed`);
for (const f of changed) console.log(`  ${f}`);
