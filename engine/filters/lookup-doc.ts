// The lookup reference of docs/filtering.md, generated from the catalogue and the filter specs so
// it cannot go stale.
import { RESOURCES, resourcePath } from '../schema/registry.js';
import { filtersOf } from './filter-set.js';
import {
  ADDRESS_TEXT_LOOKUPS,
  CF_LOOKUPS,
  NEGATION_ONLY,
  NULLABLE_LOOKUPS,
  NUMERIC_LOOKUPS,
  STRING_LOOKUPS,
  type LookupTable,
} from './lookups.js';

function table(title: string, lookups: LookupTable): string {
  const rows = Object.entries(lookups).map(([name, l]) => `| \`__${name}\` | ${l.doc} |`);
  return [`**${title}**`, '', '| lookup | meaning |', '|---|---|', ...rows].join('\n');
}

const names = (xs: readonly string[]) => xs.map((x) => `\`${x}\``).join(' ') || '—';

/** Per list path: the reference filters (own foreign keys, `<fk>_id`, related objects' keys) and
 * the filters that take `__isnull`. */
function byResource(): string[] {
  const rows = RESOURCES.filter((r) => r.inventory !== false).map((r) => {
    const specs = [...filtersOf(r).values()];
    const refs = specs.filter((s) => s.type === 'fk' || s.type === 'path').map((s) => s.name);
    const nullable = specs.filter((s) => 'isnull' in s.lookups).map((s) => s.name);
    return `| \`${resourcePath(r)}\` | ${names(refs)} | ${names(nullable)} |`;
  });
  return ['| list | reference filters (ids or slugs/names; `_id`: ids) | `__isnull` on |', '|---|---|---|', ...rows];
}

export function lookupReference(): string {
  const cfRows = Object.entries(CF_LOOKUPS).map(
    ([type, l]) =>
      `| ${type} | ${
        Object.keys(l)
          .map((k) => `\`__${k}\``)
          .join(' ') || '(none: exact value only)'
      } |`,
  );
  return [
    table(
      'String and choice fields (`name`, `slug`, `description`, `status`, `mac_address`, …); ' +
        'no lookup = exact, case-sensitive',
      STRING_LOOKUPS,
    ),
    '',
    table(
      'Numeric and date-time fields (`asn`, `vid`, `mtu`, `prefix_length`, `created`, `last_updated`); ' +
        'no lookup = equal',
      NUMERIC_LOOKUPS,
    ),
    '',
    table(
      "Foreign keys (`site`, `site_id`, …), related objects' keys (`region` of a device) and `tag`; " +
        'no lookup = any of them',
      NEGATION_ONLY,
    ),
    '',
    table(
      'Nullable fields (`asn`, `mtu`, `mac_address`, `region`, `site_id`, …) and every custom field',
      NULLABLE_LOOKUPS,
    ),
    '',
    table('Address text of `network` / `host`', ADDRESS_TEXT_LOOKUPS),
    '',
    '**Custom fields by type** (`cf_<name>__<lookup>`)',
    '',
    '| type | lookups |',
    '|---|---|',
    ...cfRows,
    '',
    '**Reference and nullable filters by list**',
    '',
    ...byResource(),
  ].join('\n');
}
