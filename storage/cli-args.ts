// The npm scripts' arguments (engine/cli/args.ts) at a command's start: `--help` prints the usage
// and exits 0; a bad argument prints one line naming it and exits 2, before anything runs.
import { parseArgs, type Args, type CliSpec } from '../engine/cli/args.js';

export type { Args, CliSpec } from '../engine/cli/args.js';

/** The command's name in messages: `bench:data` for `npm run bench:data --`. */
export const commandName = (spec: CliSpec): string => spec.command.replace(/^npm (run )?/, '').replace(/ --$/, '');

export function argsOrExit(spec: CliSpec, argv: readonly string[] = process.argv.slice(2)): Args {
  const r = parseArgs(spec, argv);
  if (r.kind === 'ok') return r.values;
  if (r.kind === 'help') {
    console.log(r.text);
    process.exit(0);
  }
  console.error(`${commandName(spec)}: ${r.message}`);
  process.exit(2);
}
