// IP allocation (`npm run bench:allocation`, `allocation` files): the first free /24 in a /8 whose
// first N /26s are taken, per backend.
import { label } from './backends.js';
import type { Filler } from './fillers.js';
import { duration, ms, pair } from './format.js';
import { table } from './markdown.js';
import { need } from './sources.js';
import type { Figure } from '../measure.js';

const fig = (f: Figure): string => pair(f.median_us, f.p99_us);

const allocation: Filler = (ctx) => {
  const head = [
    'backend',
    'free-space read without a hint: median / p99',
    'first allocation after the load',
    'allocation: median / p99',
    'one prefix create, in order / at random: median',
    'loading the /26s',
  ];
  return table(
    head,
    need(ctx.sources, 'allocation').data.rows.map((x) => [
      label(x.backend),
      fig(x.search),
      ms(x.first_allocate_ms),
      fig(x.allocate),
      `${duration(x.create.median_us)} / ${duration(x.create_random.median_us)}`,
      ms(x.load_ms),
    ]),
  );
};

export const ALLOCATION_FILLERS: Readonly<Record<string, Filler>> = { 'allocation-table': allocation };
