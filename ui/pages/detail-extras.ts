// What a resource's detail page shows beyond its fields and the objects pointing at it.
import type { FunctionComponent } from 'preact';
import { html } from '../lib/html.js';
import type { Catalog } from '../lib/catalog.js';
import type { Resource } from '../lib/openapi.js';
import { findResource } from '../lib/catalog.js';
import { RelatedList } from '../components/related-list.js';

interface ExtrasProps {
  catalog: Catalog;
  object: any;
}

/** A prefix: the prefixes containing it (its parent chain), its direct children, its addresses.
 * Children by `parent=<CIDR>`, which means the same as the prefix's id in either id style. */
function PrefixExtras({ catalog, object }: ExtrasProps) {
  const prefixes = findResource(catalog, 'ipam/prefixes')!;
  const addresses = findResource(catalog, 'ipam/ip-addresses');
  const hasParent = prefixes.filters.some((f) => f.name === 'parent');
  return html`<p><a class="button" href=${`#/ipam/prefixes/${object.id}/tree`}>Hierarchy and free space</a></p>
    <${RelatedList}
      title="Parent chain"
      testid="parent-chain"
      resource=${prefixes}
      pairs=${[
        ['network__net_contains', object.prefix],
        ['ordering', 'prefix_length'],
      ]}
      limit=${33}
    />
    <${RelatedList}
      title="Child prefixes"
      testid="children"
      resource=${prefixes}
      pairs=${hasParent ? [['parent', object.prefix]] : [['within', object.prefix]]}
    />
    ${
      addresses
        ? html`<${RelatedList}
            title="IP addresses"
            testid="addresses"
            resource=${addresses}
            pairs=${[['parent', object.prefix]]}
          />`
        : null
    }`;
}

const EXTRAS: Record<string, FunctionComponent<ExtrasProps>> = { 'ipam/prefixes': PrefixExtras };

export function extrasFor(r: Resource): FunctionComponent<ExtrasProps> | undefined {
  return EXTRAS[r.key];
}
