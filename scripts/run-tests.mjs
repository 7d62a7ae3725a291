// `npm test`: the suite in two phases. First every file but the few below, in parallel (two workers: most
// files wait on databases, servers and browsers, so two keep both cores busy), then those few alone, since
// they measure the machine itself (event loop gaps, reads caused by lag, bytes a stalled client leaves in the
// kernel's buffers) or race a clock on a CPU-bound property, and a neighbour's load would fail them, not the
// product. Both phases always run; the exit
// status is the first phase's failure, else the second's. Each phase prints mocha's own summary.
import { spawnSync } from 'node:child_process';

const ALONE = [
  'dist/test/e2e/hardening/time-budget.test.js',
  'dist/test/engine/net/containment-index.test.js',
  'dist/test/storage/change-log/change-watch.test.js',
  'dist/test/server/change-stream.test.js',
];
const JOBS = process.env.TEST_JOBS ?? '2';
const mocha = (args) =>
  spawnSync(process.execPath, ['node_modules/mocha/bin/mocha.js', ...args, ...process.argv.slice(2)], {
    stdio: 'inherit',
  }).status ?? 1;

const parallel = mocha([
  '--config',
  '.mocharc.json',
  '--parallel',
  '--jobs',
  JOBS,
  ...ALONE.flatMap((f) => ['--ignore', f]),
]);
const alone = mocha(['--no-config', '--timeout', '20000', '--enable-source-maps', ...ALONE]);
process.exit(parallel || alone);
