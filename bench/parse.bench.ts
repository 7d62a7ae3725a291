// Micro-benchmark for the query lexer/parser stage (run: node dist/bench/parse.bench.js).
// Inputs are pre-built pair arrays so URLSearchParams decoding is not measured.
import Benchmark from 'benchmark';
import { classifyValue, parseKey, parseQuery } from '../engine/query/index.js';

const query: ReadonlyArray<readonly [string, string]> = [
  ['status', 'active'],
  ['name__isw', 'core'],
  ['cf_rack_count__lt', '4'],
  ['network__net_contained', '10.0.0.0/8'],
];
const values = [
  'active',
  '65000',
  '10.0.0.0/8',
  'fd78:da4f:e596:c217::/64',
  '2024-01-02T03:04:05Z',
  '3fa85f64-5717-4562-b3fc-2c963f66afa6',
];

// Cold path: every key and value is new, so parseQuery's memo always misses and
// each pair pays a full Chevrotain lex (+ parse for keys). The counter suffix
// costs a string concat (~tens of ns), small next to the figures measured.
let n = 0;
function coldQuery(): Array<readonly [string, string]> {
  n++;
  return [
    [`status${n}`, `active${n}`],
    [`name${n}__isw`, `core${n}`],
    [`cf_rack_count${n}__lt`, `${n}`],
    [`network${n}__net_contained`, `10.0.${n & 255}.0/24`],
  ];
}

let sink = 0; // consumed results keep V8 from eliminating the calls
const perCallDivisor: Record<string, number> = {};
const suite = new Benchmark.Suite('query parse');
const VALUES_NAME = `classifyValue (${values.length} mixed values)`;
perCallDivisor[VALUES_NAME] = values.length;
suite
  .add('parseKey(network__net_contained), uncached', () => {
    sink += parseKey('network__net_contained').error === null ? 1 : 0;
  })
  .add('parseQuery 4 params, repeated query (memo hits)', () => {
    sink += parseQuery(query).terms.length;
  })
  .add('parseQuery 4 params, all-new keys/values (memo misses)', () => {
    sink += parseQuery(coldQuery()).terms.length;
  })
  .add(VALUES_NAME, () => {
    for (const v of values) sink += classifyValue(v).length;
  })
  .add('classifyValue(10.0.0.0/8)', () => {
    sink += classifyValue('10.0.0.0/8').length;
  })
  .on('cycle', (event: Benchmark.Event) => {
    const b = event.target;
    if (!(b instanceof Benchmark)) return; // a cycle event's target is the benchmark that ran
    const name = b.name ?? '?';
    const div = perCallDivisor[name] ?? 1;
    const meanUs = (b.stats.mean * 1e6) / div;
    console.log(
      `${name}: ${Math.round(b.hz).toLocaleString('en-US')} ops/s, mean ${meanUs.toFixed(3)} µs` +
        `${div > 1 ? ' per value' : ''} ±${b.stats.rme.toFixed(2)}% (${b.stats.sample.length} samples)`,
    );
  })
  .on('complete', () => {
    if (sink === -1) console.log(sink);
  })
  .run({ async: false });
