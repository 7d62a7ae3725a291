// Where a bench's figures go: bench/results/<date>-<kind>.json, with the machine they were taken on.
// docs/benchmarks.md is generated from the newest file of each kind (`npm run docs`), so a
// bench writes its figures here and never into the doc.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { machineInfo } from './machine.js';
import type { Machine } from './results-shapes.js';

/** bench/results/ in the source tree (this module runs from dist/bench/). */
export const RESULTS_DIR = new URL('../../bench/results/', import.meta.url);

/** Writes `{machine, ...body}` as today's file of `kind`; returns its path. */
export function writeResults(kind: string, body: Record<string, unknown>, machine: Machine = machineInfo()): string {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = new URL(`${machine.date}-${kind}.json`, RESULTS_DIR);
  fs.writeFileSync(file, JSON.stringify({ machine, ...body }, null, 1));
  const path = fileURLToPath(file);
  console.log(`\nwrote ${path}; \`npm run docs\` regenerates docs/benchmarks.md from it`);
  return path;
}
