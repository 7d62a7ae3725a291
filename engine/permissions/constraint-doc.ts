// The reference sections of docs/permission-constraints.md, made from the tables themselves
// (tools/generated-docs.ts writes them; test/docs/generated-docs.test.ts fails while they are stale).
import { CONSTRAINT_LOOKUPS } from './constraint-lookups.js';
import { NETBOX_NAMES } from './netbox-names.js';

/** The lookup table: name, the path ends it applies to, what it does. */
export function constraintLookupReference(): string {
  const rows = Object.entries(CONSTRAINT_LOOKUPS).map(([name, l]) => `| \`${name}\` | ${l.on.join(', ')} | ${l.doc} |`);
  return ['| lookup | applies to | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

/** NetBox's names that stand for another path of the product's. */
export function netboxNamesReference(): string {
  const rows = Object.entries(NETBOX_NAMES).flatMap(([on, names]) =>
    Object.entries(names).map(([nb, path]) => `| ${on === '*' ? 'any' : on} | \`${nb}\` | \`${path.join('__')}\` |`),
  );
  return ["| on | NetBox's name | the product's path |", '| --- | --- | --- |', ...rows].join('\n');
}
