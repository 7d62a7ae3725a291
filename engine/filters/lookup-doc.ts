// The lookup reference of docs/filtering.md, generated from the catalogue so it cannot go stale.
import { ADDRESS_TEXT_LOOKUPS, NUMERIC_LOOKUPS, STRING_LOOKUPS, type LookupTable } from './lookups.js';
import { CF_LOOKUPS } from '../plan/cf-terms.js';

function table(title: string, lookups: LookupTable): string {
  const rows = Object.entries(lookups).map(([name, l]) => `| \`__${name}\` | ${l.doc} |`);
  return [`**${title}**`, '', '| lookup | meaning |', '|---|---|', ...rows].join('\n');
}

export function lookupReference(): string {
  const cfRows = Object.entries(CF_LOOKUPS).map(([type, l]) => `| ${type} | ${Object.keys(l).map((k) => `\`__${k}\``).join(' ') || '(none: exact value only)'} |`);
  return [
    table('String and choice fields (`name`, `slug`, `description`, `status`, `mac_address`, …); no lookup = exact, case-sensitive', STRING_LOOKUPS),
    '',
    table('Numeric and date-time fields (`asn`, `vid`, `mtu`, `prefix_length`, `created`, `last_updated`); no lookup = equal', NUMERIC_LOOKUPS),
    '',
    table('Address text of `network` / `host`', ADDRESS_TEXT_LOOKUPS),
    '',
    '**Custom fields by type** (`cf_<name>__<lookup>`)',
    '',
    '| type | lookups |',
    '|---|---|',
    ...cfRows,
  ].join('\n');
}
