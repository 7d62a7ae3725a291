// Resolves configuration: defaults < JSON file (--config FILE or CONFIG_FILE) < environment.
// Any problem is a ConfigError with one line that names it.
import { ID_STYLES } from '../../engine/schema/id-style.js';
import fs from 'node:fs';
import { CONFIG_KEYS, DEFAULTS, type Config, type TokenConfig } from './defaults.js';
import { parseAllowedHosts } from '../../engine/changes/webhook-targets.js';
import { parseNetworkList } from '../../engine/net/client-address.js';

export class ConfigError extends Error {}

const BOOL: Record<string, boolean> = {
  true: true,
  '1': true,
  yes: true,
  on: true,
  false: false,
  '0': false,
  no: false,
  off: false,
};

/** How a whole-number setting's error names its range. */
const RANGE_TEXT: Readonly<Record<string, string>> = {
  port: ' from 0 to 65535',
  positive: ' above 0',
  whole: ' (0 or more)',
};

function parseValue(name: string, parse: string, v: unknown): unknown {
  switch (parse) {
    case 'string':
      if (typeof v !== 'string' || v === '') throw new ConfigError(`config: ${name} must be a non-empty string`);
      return v;
    case 'boolean': {
      if (typeof v === 'boolean') return v;
      const b = BOOL[String(v).toLowerCase()];
      if (b === undefined) throw new ConfigError(`config: ${name} must be true or false, got "${v}"`);
      return b;
    }
    case 'port':
    case 'positive':
    case 'whole': {
      const n = typeof v === 'number' ? v : /^\d+$/.test(String(v)) ? Number(v) : NaN;
      const max = parse === 'port' ? 65535 : 1e9;
      if (!Number.isInteger(n) || n < (parse === 'positive' ? 1 : 0) || n > max)
        throw new ConfigError(`config: ${name} must be a whole number${RANGE_TEXT[parse]}, got "${v}"`);
      return n;
    }
    case 'level':
      // major.minor, as NetBox clients compare it (Ansible's netbox.netbox splits it in two).
      if (typeof v !== 'string' || !/^\d{1,4}\.\d{1,4}$/.test(v))
        throw new ConfigError(
          `config: ${name} must be a NetBox API level as text, major.minor such as "3.7", got ${JSON.stringify(v)}`,
        );
      return v;
    case 'hosts': {
      // A list in the file, or one comma-separated text; kept as text, checked here so a bad entry stops the start.
      const text = Array.isArray(v) && v.every((e) => typeof e === 'string') ? v.join(', ') : v;
      if (typeof text !== 'string')
        throw new ConfigError(
          `config: ${name} must be host names and CIDRs, each with an optional :port, comma-separated`,
        );
      try {
        parseAllowedHosts(text);
      } catch (e) {
        throw new ConfigError(
          `config: ${name}: ${(e as Error).message} (host names and CIDRs, each with an optional :port, ` +
            `comma-separated)`,
        );
      }
      return text;
    }
    case 'replica':
      if (v !== '' && v !== 'memory')
        throw new ConfigError(
          `config: ${name} must be "memory" (an in-memory replica of the database in this process) or empty, ` +
            `got ${JSON.stringify(v)}`,
        );
      return v;
    case 'idstyle':
      if (v !== '' && !(ID_STYLES as readonly unknown[]).includes(v))
        throw new ConfigError(
          `config: ${name} must be ${ID_STYLES.map((s) => JSON.stringify(s)).join(' or ')}, got ${JSON.stringify(v)}`,
        );
      return v;
    case 'peppers':
      return parsePeppers(name, v);
    case 'cidrs':
      return parseCidrList(name, v);
    case 'tokens': {
      if (!Array.isArray(v)) throw new ConfigError(`config: tokens must be a list of {"key", "permissions"}`);
      return v.map((t, i): TokenConfig => {
        if (typeof t !== 'object' || t === null || typeof t.key !== 'string' || t.key.length < 8)
          throw new ConfigError(`config: tokens[${i}].key must be a string of at least 8 characters`);
        const perms = t.permissions ?? ['*'];
        if (!Array.isArray(perms) || !perms.every((p: unknown) => typeof p === 'string'))
          throw new ConfigError(`config: tokens[${i}].permissions must be a list of strings`);
        return {
          key: t.key,
          permissions: perms,
          description: typeof t.description === 'string' ? t.description : undefined,
        };
      });
    }
  }
  throw new Error(`unknown parse ${parse}`);
}

/** TRUSTED_PROXIES: addresses and CIDRs (a list in the file, or comma-separated text), kept as text. */
function parseCidrList(name: string, v: unknown): string {
  const text = Array.isArray(v) && v.every((e) => typeof e === 'string') ? v.join(', ') : v;
  if (typeof text !== 'string') throw new ConfigError(`config: ${name} must be addresses and CIDRs, comma-separated`);
  try {
    parseNetworkList(text);
  } catch (e) {
    throw new ConfigError(`config: ${name}: ${(e as Error).message}`);
  }
  return text;
}

/** NetBox's least pepper length. */
const MIN_PEPPER = 50;

/**
 * API_TOKEN_PEPPERS: a JSON object (text in the environment) of pepper id (a whole number, as NetBox's
 * pepper_id column holds it) to pepper, each at least 50 characters; a bad one is named.
 */
function parsePeppers(name: string, v: unknown): Record<string, string> {
  let o = v;
  if (typeof v === 'string')
    try {
      o = v.trim() ? JSON.parse(v) : {};
    } catch {
      throw new ConfigError(`config: ${name} must be a JSON object of pepper id to pepper, such as {"1": "…"}`);
    }
  if (typeof o !== 'object' || o === null || Array.isArray(o))
    throw new ConfigError(`config: ${name} must be a JSON object of pepper id to pepper, such as {"1": "…"}`);
  const out: Record<string, string> = {};
  for (const [id, pepper] of Object.entries(o)) {
    if (!/^\d{1,5}$/.test(id) || Number(id) > 32767)
      throw new ConfigError(`config: ${name}: pepper id "${id}" must be a whole number from 0 to 32767`);
    if (typeof pepper !== 'string' || pepper.length < MIN_PEPPER)
      throw new ConfigError(`config: ${name}: pepper ${id} must be a string of at least ${MIN_PEPPER} characters`);
    out[String(Number(id))] = pepper;
  }
  return out;
}

function configFileFrom(argv: readonly string[], env: NodeJS.ProcessEnv): string | null {
  const i = argv.indexOf('--config');
  if (i >= 0) {
    if (!argv[i + 1]) throw new ConfigError('config: --config needs a file name');
    return argv[i + 1];
  }
  const eq = argv.find((a) => a.startsWith('--config='));
  if (eq) return eq.slice('--config='.length);
  return env.CONFIG_FILE || null;
}

export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv): Config {
  const file = configFileFrom(argv, env);
  let fromFile: Record<string, unknown> = {};
  if (file) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      throw new ConfigError(
        `config: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      );
    }
    try {
      fromFile = JSON.parse(text);
    } catch (e) {
      throw new ConfigError(`config: ${file} is not valid JSON: ${(e as Error).message}`);
    }
    if (typeof fromFile !== 'object' || fromFile === null || Array.isArray(fromFile))
      throw new ConfigError(`config: ${file} must hold a JSON object`);
    const known = new Set(CONFIG_KEYS.map((k) => k.key as string));
    for (const k of Object.keys(fromFile))
      if (!known.has(k)) throw new ConfigError(`config: ${file} has unknown key "${k}"`);
  }
  const out: Record<string, unknown> = { ...DEFAULTS };
  for (const { key, env: envName, parse } of CONFIG_KEYS) {
    if (key in fromFile) out[key] = parseValue(key, parse, fromFile[key]);
    if (envName && env[envName] !== undefined && env[envName] !== '')
      out[key] = parseValue(envName, parse, env[envName]);
  }
  // Demo data by default only where nothing persists.
  if (out.demoData === undefined) out.demoData = out.storage === 'memory:';
  const scheme = String(out.storage).split(':')[0] + ':';
  if (!['memory:', 'postgres:', 'postgresql:', 'mysql:'].includes(scheme))
    throw new ConfigError(
      `config: unknown storage scheme in "${out.storage}" (expected memory:, memory:/dir, postgres://… or mysql://…)`,
    );
  if (!isConfig(out)) throw new Error('config: a setting holds a value of the wrong type (a parser of load-config.ts)');
  return out;
}

/** The type of value each way of parsing gives. */
const GIVES: Readonly<
  Record<(typeof CONFIG_KEYS)[number]['parse'], 'string' | 'number' | 'boolean' | 'list' | 'object'>
> = {
  string: 'string',
  port: 'number',
  boolean: 'boolean',
  positive: 'number',
  whole: 'number',
  level: 'string',
  replica: 'string',
  idstyle: 'string',
  hosts: 'string',
  tokens: 'list',
  peppers: 'object',
  cidrs: 'string',
};

/** Every setting holds the type its parse gives (the defaults and the parsers above keep to it). */
function isConfig(o: Readonly<Record<string, unknown>>): o is Readonly<Record<string, unknown>> & Config {
  return CONFIG_KEYS.every(({ key, parse }) => {
    const v = o[key];
    if (GIVES[parse] === 'object') return typeof v === 'object' && v !== null && !Array.isArray(v);
    return GIVES[parse] === 'list' ? Array.isArray(v) : typeof v === GIVES[parse];
  });
}
