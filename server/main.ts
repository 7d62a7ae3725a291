// `npm start`: one line per problem at start, an admin token printed once, clean SIGTERM.
import './production-mode.js'; // first: before anything loads graphql
import { ConfigError, loadConfig } from './config/load-config.js';
import { StorageConfigError } from '../storage/open-storage.js';
import { start, consoleLogger } from './start.js';
import { asLogger, createRequestLogger } from './observability.js';
import { MachineFileError } from './machine-files.js';
import { CONFIG_KEYS } from './config/defaults.js';
import { argsOrExit, type CliSpec } from '../storage/cli-args.js';

const START_CLI: CliSpec = {
  command: 'npm start --',
  summary:
    'Serves the inventory and lifecycle API. Configuration: defaults < the JSON file < environment variables ' +
    '(docs/configuration.md).',
  flags: [
    { name: 'config', type: 'string', value: 'FILE', help: 'a JSON file of configuration keys (or CONFIG_FILE)' },
  ],
  env: [
    { name: 'CONFIG_FILE', help: 'the JSON file, when --config is not given' },
    ...CONFIG_KEYS.flatMap((k) => (k.env ? [{ name: k.env, help: `configuration key ${k.key}` }] : [])),
  ],
};

/** The start line's word on DEMO_DATA. */
const DEMO_NOTE = {
  none: '',
  loaded: ', demo data loaded',
  present:
    "; DEMO_DATA is set but the store holds inventory already (an earlier start's demo data or your own): " +
    'not loaded again',
} as const;

async function main(): Promise<void> {
  try {
    argsOrExit(START_CLI);
    const config = loadConfig(process.argv.slice(2), process.env);
    const requestLog = createRequestLogger(process.env.LOG_LEVEL ?? 'info');
    const running = await start(
      config,
      { ...consoleLogger, warn: asLogger(requestLog).warn, error: asLogger(requestLog).error },
      requestLog,
    );
    // Before the start line: a signal sent as soon as it is read stops the server gracefully too.
    // Requests drain, then the process ends (the request log writes what it still holds on exit).
    const stop = async () => {
      await running.close();
      process.exit(0);
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    console.log(`listening on ${running.url} (storage ${config.storage}${DEMO_NOTE[running.demo ?? 'none']})`);
    if (running.adminKey)
      console.log(
        `admin token (shown once): ${running.adminKey}\n  try: curl -H "Authorization: Token ` +
          `${running.adminKey}" "${running.url}/api/ipam/prefixes/?network__net_contained=10.0.0.0/8"`,
      );
  } catch (e) {
    if (e instanceof ConfigError || e instanceof StorageConfigError || e instanceof MachineFileError)
      console.error(e.message);
    else console.error(`start failed: ${(e as Error).message}`);
    process.exit(1);
  }
}

void main();
