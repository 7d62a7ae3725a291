// Rows the benchmarks' flag tables share (engine/cli/args.ts): one wording and one check each.
import type { FlagSpec } from '../engine/cli/args.js';
import { SQL_BACKENDS } from './sql-backends.js';

/** `--backends`: which of `choices` to measure. */
export const backendsFlag = (dflt: string, choices: readonly string[] = ['memory', ...SQL_BACKENDS]): FlagSpec => ({
  name: 'backends',
  type: 'list',
  choices,
  default: dflt,
  help:
    'backends to measure (mysql: MariaDB at TEST_MYSQL_URL, mysql9: Oracle MySQL 9 at TEST_MYSQL9_URL; ' +
    'unreachable ones are skipped)',
});

export const SHAPE_FLAG: FlagSpec = {
  name: 'shape',
  type: 'string',
  choices: ['uniform', 'ipam'],
  default: 'uniform',
  help: 'random prefixes, or an IPAM-like tree',
};

export const connectionsFlag = (dflt: string): FlagSpec => ({
  name: 'connections',
  type: 'integer',
  min: 1,
  default: dflt,
  help: 'connections of the load generator',
});

export const secondsFlag = (dflt: string, help: string): FlagSpec => ({
  name: 'seconds',
  type: 'integer',
  min: 1,
  default: dflt,
  help,
});

/** `--prefixes`: the size of the bench dataset. */
export const prefixesFlag = (dflt: string, help = 'prefixes of the bench dataset'): FlagSpec => ({
  name: 'prefixes',
  type: 'integer',
  min: 1,
  default: dflt,
  help,
});

/** `--cases`: which of a benchmark's cases to run (all by default). */
export const casesFlag = (cases: readonly string[]): FlagSpec => ({
  name: 'cases',
  type: 'list',
  choices: cases,
  default: cases.join(','),
  help: 'which cases to run',
});
