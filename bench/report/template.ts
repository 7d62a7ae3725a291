// The prose template (bench/report/template.md) filled in: each `{{name}}` or `{{name:arg:…}}`
// is replaced by its filler's text. An unknown name, or a filler that finds no figure, is an error
// naming the placeholder: the doc never goes out with a hole or a guessed number.
import { ALLOCATION_FILLERS } from './allocation.js';
import type { Ctx, Filler } from './fillers.js';
import { FILTER_FILLERS } from './filters.js';
import { HTTP_FILLERS } from './http-load.js';
import { LIFECYCLE_FILLERS } from './lifecycle.js';
import { STORE_FILLERS } from './memory-store.js';
import { REPLICA_FILLERS } from './replicas.js';
import { RESULTS_FILLERS } from './results-list.js';
import { WRITE_FILLERS } from './writes.js';
import { IMPORT_FILLERS } from './import.js';
import { GRAPHQL_FILLERS } from './graphql.js';
import { CSV_FILLERS } from './csv.js';

const GROUPS = [
  FILTER_FILLERS,
  HTTP_FILLERS,
  LIFECYCLE_FILLERS,
  REPLICA_FILLERS,
  WRITE_FILLERS,
  ALLOCATION_FILLERS,
  STORE_FILLERS,
  IMPORT_FILLERS,
  GRAPHQL_FILLERS,
  CSV_FILLERS,
  RESULTS_FILLERS,
];

/** Every filler by name; two modules naming the same one is a mistake caught at load. */
export const FILLERS: Readonly<Record<string, Filler>> = GROUPS.reduce<Record<string, Filler>>((all, g) => {
  for (const [name, f] of Object.entries(g)) {
    if (name in all) throw new Error(`two fillers named ${name}`);
    all[name] = f;
  }
  return all;
}, {});

const PLACEHOLDER = /\{\{([^{}]+)\}\}/g;

export function fill(template: string, ctx: Ctx): string {
  return template.replace(PLACEHOLDER, (whole, body: string) => {
    const [name, ...args] = body.split(':');
    const f = FILLERS[name];
    if (!f) throw new Error(`template: unknown placeholder ${whole}`);
    try {
      return f(ctx, ...args);
    } catch (e) {
      throw new Error(`template: ${whole}: ${(e as Error).message}`);
    }
  });
}
