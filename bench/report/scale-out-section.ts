// docs/scale-out.md's measured section (between its `scale-out` markers), made from the newest
// `scale-out` results file: the bench writes only its results, `npm run docs` writes the section.
import type { ScaleOutResults } from '../results-shapes.js';

export function scaleOutSection(r: ScaleOutResults): string {
  const m = r.machine;
  const taken =
    `Taken on ${m.date}: ${m.cores} cores (${m.cpu}), ${m.memory_gib} GiB, Node ${m.node}; ` +
    `${r.prefixes.toLocaleString('en-US')} prefixes; autocannon, ${r.connections} connections shared out ` +
    `over the processes, ${r.duration} s per row after a warm-up; the database, every server process and ` +
    `the load generator share the machine's cores.`;
  return [
    taken,
    '',
    '| database | processes | requests | requests/s | p99 | errors |',
    '|---|---|---|---|---|---|',
    ...r.rows.map((x) => `| ${x.backend} | ${x.processes} | ${x.what} | ${x.rps} | ${x.p99_ms} ms | ${x.errors} |`),
    '',
    ...r.processes,
  ].join('\n');
}
