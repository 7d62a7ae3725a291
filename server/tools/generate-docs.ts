// `npm run docs:generate`: regenerate the generated sections of docs/ from the registry and catalogue.
import fs from 'node:fs';
import { lookupReference } from '../../engine/filters/lookup-doc.js';
import { resourceReference } from '../../engine/schema/resource-doc.js';
import { replaceSection } from './doc-sections.js';
import { argsOrExit, type CliSpec } from '../../storage/cli-args.js';

const DOCS_CLI: CliSpec = {
  command: 'npm run docs:generate --',
  summary:
    'Regenerates the generated sections of docs/ (the lookup and resource references) from the registry and the lookup catalogue.',
  flags: [],
};
argsOrExit(DOCS_CLI);

export const GENERATED = [
  { file: 'docs/filtering.md', section: 'lookups', make: lookupReference },
  { file: 'docs/resources.md', section: 'resources', make: resourceReference },
] as const;

for (const g of GENERATED) {
  const file = new URL(`../../../${g.file}`, import.meta.url);
  fs.writeFileSync(file, replaceSection(fs.readFileSync(file, 'utf8'), g.section, g.make()));
  console.log(`${g.file}: ${g.section} updated`);
}
