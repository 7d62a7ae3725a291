// The CSV reader of imports (app/transfer/parse.ts): a file given in many parts to a reader slower than the
// parser is read whole, in order, and waiting for the parser leaves no listener behind (one left per wait
// piled up past Node's limit of 10 on a 100k-row import: MaxListenersExceededWarning).
import { expect } from 'chai';
import { csvRecords } from '../../app/transfer/parse.js';

async function* parts(rows: number, perPart: number): AsyncGenerator<string> {
  yield 'name,slug\n';
  for (let i = 0; i < rows; i += perPart) {
    let text = '';
    for (let j = i; j < Math.min(rows, i + perPart); j++) text += `site ${j},s-${j}\n`;
    yield text;
  }
}

describe('import CSV reader', () => {
  it('reads a file of many parts whole and in order, leaving no listener per wait', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      let n = -1; // the header first
      for await (const cells of csvRecords(parts(60_000, 200))) {
        if (n >= 0) expect(cells).to.deep.equal([`site ${n}`, `s-${n}`]);
        else expect(cells).to.deep.equal(['name', 'slug']);
        n++;
        if (n % 500 === 0) await new Promise((r) => setImmediate(r)); // a reader slower than the parser
      }
      expect(n).to.equal(60_000);
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
      expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).to.deep.equal([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
