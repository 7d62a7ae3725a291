// Importing a NetBox database (`import` files): how long import:netbox takes per target, against #36's targets.
import { label } from './backends.js';
import type { Filler } from './fillers.js';
import { table } from './markdown.js';
import { need } from './sources.js';

/** #36: seconds a million prefixes and a million addresses may take, per target. */
const TARGET_S: Readonly<Record<string, number>> = { memory: 60, postgres: 180 };

const seconds = (v: number | string | undefined): string =>
  typeof v === 'number' ? `${v.toFixed(1)} s` : v === undefined ? '—' : v;

const importTable: Filler = (ctx) => {
  const r = need(ctx.sources, 'import').data;
  const targets = Object.keys(r.seconds).filter((k) => !k.endsWith('_cpu'));
  const rows = targets.map((t) => [
    label(t),
    seconds(r.seconds[t]),
    seconds(r.seconds[`${t}_cpu`]),
    TARGET_S[t] ? `≤ ${TARGET_S[t]} s` : '—',
  ]);
  return table(['target', 'import (wall)', 'CPU of the importing process', 'target'], rows, [1, 2, 3]);
};

export const IMPORT_FILLERS: Readonly<Record<string, Filler>> = { 'import-table': importTable };
