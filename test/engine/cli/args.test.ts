// The npm scripts' argument tables (engine/cli/args.ts): usage text and checks from one table.
import { expect } from 'chai';
import { parseArgs, usage, type CliSpec } from '../../../engine/cli/args.js';

const SPEC: CliSpec = {
  command: 'npm run demo --',
  summary: 'A command for the tests.',
  positionals: [{ name: 'dir', help: 'where' }],
  flags: [
    { name: 'count', type: 'integer', min: 1, default: '10', help: 'how many' },
    { name: 'share', type: 'number', min: 0, max: 1, default: '0.5', help: 'which part' },
    { name: 'shape', type: 'string', choices: ['a', 'b'], default: 'a', help: 'which shape' },
    { name: 'backends', type: 'list', choices: ['memory', 'postgres'], default: 'memory', help: 'where' },
    { name: 'sizes', type: 'list', items: 'integer', min: 1, default: '1,2', help: 'sizes' },
    { name: 'quick', type: 'flag', help: 'be quick' },
    { name: 'out', type: 'string', value: 'FILE', help: 'write to FILE' },
  ],
};

const ok = (argv: string[]) => {
  const r = parseArgs(SPEC, argv);
  if (r.kind !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(r)}`);
  return r.values;
};
const error = (argv: string[]) => {
  const r = parseArgs(SPEC, argv);
  expect(r.kind).to.equal('error');
  return (r as { message: string }).message;
};

describe('command-line arguments from one table', () => {
  it('gives the defaults, typed, when nothing is given', () => {
    const a = ok(['d']);
    expect([
      a.number('count'),
      a.number('share'),
      a.string('shape'),
      a.list('backends'),
      a.list('sizes'),
      a.flag('quick'),
      a.string('out'),
    ]).to.deep.equal([10, 0.5, 'a', ['memory'], ['1', '2'], false, '']);
    expect(a.positionals).to.deep.equal(['d']);
    expect(a.given('count')).to.equal(false);
  });

  it('reads --name value and --name=value, flags, lists and positionals in any order', () => {
    const a = ok(['--count', '3', 'd', '--share=0.25', '--backends', 'memory,postgres', '--quick', '--out', 'x.json']);
    expect([
      a.number('count'),
      a.number('share'),
      a.list('backends'),
      a.flag('quick'),
      a.string('out'),
      a.positionals[0],
    ]).to.deep.equal([3, 0.25, ['memory', 'postgres'], true, 'x.json', 'd']);
    expect(a.given('count')).to.equal(true);
  });

  it('refuses an unknown flag, naming it, and names every problem in one line', () => {
    expect(error(['d', '--bogus'])).to.match(/^unknown option --bogus \(--help lists the options\)$/);
    expect(error(['d', '--cuont=3'])).to.contain('unknown option --cuont');
    const m = error([
      '--count',
      '0',
      '--shape',
      'c',
      '--backends',
      'memory,oracle',
      '--sizes',
      '1,x',
      '--share',
      '2',
      '-x',
    ]);
    for (const part of [
      '--count must be a whole number of at least 1, got "0"',
      '--shape must be one of a, b, got "c"',
      '--backends takes memory, postgres (comma-separated): not oracle',
      '--sizes takes whole numbers of at least 1',
      '--share must be a number from 0 to 1',
      'unknown option -x',
      'missing <dir>',
    ])
      expect(m).to.contain(part);
  });

  it('refuses a missing value, a value on a flag, and an extra argument', () => {
    expect(error(['d', '--count'])).to.contain('--count needs a value N');
    expect(error(['d', '--quick=yes'])).to.contain('--quick takes no value');
    expect(error(['d', 'e'])).to.contain('unexpected argument "e"');
  });

  it('answers --help (or -h) anywhere with the usage made from the table, whatever else is wrong', () => {
    for (const argv of [['--help'], ['-h'], ['--bogus', 'x', 'y', '--help']]) {
      const r = parseArgs(SPEC, argv);
      expect(r.kind).to.equal('help');
      expect((r as { text: string }).text).to.equal(usage(SPEC));
    }
    const text = usage(SPEC);
    expect(text).to.match(/^usage: npm run demo -- <dir> \[options\]/);
    for (const line of [
      '--count N',
      'how many (default 10)',
      '--shape a|b',
      '--backends memory,postgres',
      '--out FILE',
      '--quick',
      '-h, --help',
    ])
      expect(text).to.contain(line);
  });

  it('takes what follows -- as arguments, even when it looks like a flag', () => {
    expect(ok(['--', '--d']).positionals).to.deep.equal(['--d']);
  });
});
