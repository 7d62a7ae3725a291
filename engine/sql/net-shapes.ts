// Facts about a net plan node the SQL shapes depend on: whether its [network, broadcast] range is
// exactly the CIDR block of its length (as every node the planner builds is), and text forms.
import type { NetNode } from '../plan/nodes.js';
import { broadcastOf, formatAddress, maxLength, networkOf, type AddrHex, type Family } from '../net/ip.js';

export function validLength(n: NetNode): boolean {
  return Number.isInteger(n.length) && n.length >= 0 && n.length <= maxLength(n.family);
}

/** [network, broadcast] is the block network/length: inet containment operators are then exact. */
export function isAlignedBlock(n: NetNode): boolean {
  return (
    validLength(n) &&
    networkOf(n.family, n.network, n.length) === n.network &&
    broadcastOf(n.family, n.network, n.length) === n.broadcast
  );
}

export function alignedTo(family: Family, hex: AddrHex, length: number): boolean {
  return networkOf(family, hex, length) === hex;
}

/** Shortest length at which `hex` is a network address (all bits after it zero). */
export function minAlignedLength(family: Family, hex: AddrHex): number {
  const max = maxLength(family);
  let tz = 0;
  for (let i = hex.length - 1; i >= 0; i--) {
    const d = parseInt(hex[i], 16);
    if (d === 0) {
      tz += 4;
      continue;
    }
    tz += d & 1 ? 0 : d & 2 ? 1 : d & 4 ? 2 : 3;
    break;
  }
  return Math.max(0, max - Math.min(tz, max));
}

/** `10.0.0.0/8`: PostgreSQL inet/cidr input text. */
export function inetText(family: Family, hex: AddrHex, length: number): string {
  return `${formatAddress({ family, hex })}/${length}`;
}

export function isWellFormedHex(family: Family, hex: string): boolean {
  return (family === 4 || family === 6) && hex.length === (family === 4 ? 8 : 32) && /^[0-9a-f]+$/.test(hex);
}
