// The memory store's answer to Storage.coveredSpans: read off the containment index as runs of
// touching blocks (engine/net/covered-runs.ts), with no pass over the children themselves.
import type { IndexedTable } from '../../engine/memory/indexed-table.js';
import type { CoveredSpans, HexSpan } from '../../engine/allocation/free-space.js';
import type { AddrHex } from '../../engine/net/ip.js';
import type { NetBlock } from '../types.js';

/**
 * Prefixes strictly inside the block (`hosts` false) or the hosts of addresses in it (`hosts`
 * true), from `from` on when given.
 */
export function tableCoveredSpans(
  t: IndexedTable,
  hosts: boolean,
  block: NetBlock,
  max: number,
  from?: AddrHex,
): CoveredSpans {
  const idx = hosts ? t.addrIndex : t.netIndex;
  const spans: HexSpan[] = [];
  let complete = true;
  idx?.coveredSpans(
    block.family,
    block.network,
    block.length,
    hosts ? block.length : block.length + 1,
    (lo, hi) => {
      if (spans.length >= max) {
        complete = false;
        return false;
      }
      spans.push({ lo, hi });
      return true;
    },
    from,
  );
  return { spans, complete };
}
