// Read-only network fields computed from a prefix or an address text (already validated).
import { broadcastOf, formatAddress, parseCidr } from '../net/ip.js';

export function deriveNetFields(text: string | undefined, role: 'network' | 'host'): Record<string, unknown> {
  const c = text === undefined ? null : parseCidr(text);
  if (!c) return {};
  const addr = role === 'network' ? c.network : c.host;
  return {
    [role]: formatAddress({ family: c.family, hex: addr }),
    broadcast: formatAddress({ family: c.family, hex: broadcastOf(c.family, c.host, c.length) }),
    prefix_length: c.length,
    family: c.family,
  };
}
