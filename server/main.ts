// `npm start`: one line per problem at start, an admin token printed once, clean SIGTERM.
import { ConfigError, loadConfig } from './config/load-config.js';
import { StorageConfigError } from '../storage/open-storage.js';
import { start, consoleLogger } from './start.js';
import { asLogger, createRequestLogger, flushLog, type RequestLogger } from './observability.js';
import { MachineFileError } from './machine-files.js';
import { CONFIG_KEYS } from './config/defaults.js';
import { argsOrExit, type CliSpec } from '../storage/cli-args.js';

const START_CLI: CliSpec = {
  command: 'npm start --',
  summary: 'Serves the inventory and lifecycle API. Configuration: defaults < the JSON file < environment variables (docs/configuration.md).',
  flags: [{ name: 'config', type: 'string', value: 'FILE', help: 'a JSON file of configuration keys (or CONFIG_FILE)' }],
  env: [{ name: 'CONFIG_FILE', help: 'the JSON file, when --config is not given' },
    ...CONFIG_KEYS.flatMap((k) => (k.env ? [{ name: k.env, help: `configuration key ${k.key}` }] : []))],
};

/** The start line's word on DEMO_DATA. */
const DEMO_NOTE = {
  none: '',
  loaded: ', demo data loaded',
  present: '; DEMO_DATA is set but the store holds inventory already (an earlier start\'s demo data or your own): not loaded again',
} as const;

async function main(): Promise<void> {
  let running;
  let requestLog: RequestLogger | undefined;
  try {
    argsOrExit(START_CLI);
    const config = loadConfig(process.argv.slice(2), process.env);
    requestLog = createRequestLogger(process.env.LOG_LEVEL ?? 'info');
    running = await start(config, { ...consoleLogger, warn: asLogger(requestLog).warn, error: asLogger(requestLog).error }, requestLog);
    console.log(`listening on ${running.url} (storage ${config.storage}${DEMO_NOTE[running.demo ?? 'none']})`);
    if (running.adminKey) console.log(`admin token (shown once): ${running.adminKey}\n  try: curl -H "Authorization: Token ${running.adminKey}" "${running.url}/api/ipam/prefixes/?network__net_contained=10.0.0.0/8"`);
  } catch (e) {
    if (e instanceof ConfigError || e instanceof StorageConfigError || e instanceof MachineFileError) console.error(e.message);
    else console.error(`start failed: ${(e as Error).message}`);
    process.exit(1);
  }
  // Requests drain, then the log's last lines are written, then the process ends.
  const stop = async () => { await running.close(); if (requestLog) await flushLog(requestLog); process.exit(0); };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

void main();
