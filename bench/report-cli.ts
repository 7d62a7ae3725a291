// `npm run bench:report`: writes docs/benchmarks.md and its charts whole, from
// bench/report/template.md and the newest file of each kind in bench/results/.
import { argsOrExit, type CliSpec } from '../storage/cli-args.js';
import { writeDoc } from './report/doc.js';

export const REPORT_CLI: CliSpec = {
  command: 'npm run bench:report --',
  summary:
    'Writes docs/benchmarks.md and docs/benchmarks/*.svg from bench/report/template.md and the newest results file of each kind in bench/results/.',
  flags: [],
};
argsOrExit(REPORT_CLI);
const written = writeDoc();
console.log(`wrote ${written[0]} and ${written.length - 1} charts`);
