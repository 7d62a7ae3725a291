// Lists of networks a token may be used from (allowed_ips) or whose X-Forwarded-For is believed
// (TRUSTED_PROXIES), and the client address a request is judged by. Pure.
import { formatCidr, parseAddress, parseCidr, type Addr, type Cidr } from './ip.js';

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d, as a dual-stack socket reports IPv4 peers) is the IPv4 one. */
function comparable(a: Addr): Addr {
  return a.family === 6 && a.hex.startsWith('00000000000000000000ffff') ? { family: 4, hex: a.hex.slice(24) } : a;
}

/**
 * Networks from text entries (`10.1.0.0/16`, `2001:db8::/48`, or an address alone: that one address),
 * each as its network's CIDR text; throws naming the first entry that is none.
 */
export function parseNetworks(entries: readonly unknown[]): { readonly texts: string[]; readonly nets: Cidr[] } {
  const texts: string[] = [];
  const nets: Cidr[] = [];
  for (const e of entries) {
    const c = typeof e === 'string' ? parseCidr(e.trim()) : null;
    if (!c) throw new Error(`"${String(e)}" is not an IPv4 or IPv6 network (such as 10.1.1.0/24 or 2001:db8::/64)`);
    const text = formatCidr(c.family, c.network, c.length);
    if (!texts.includes(text)) (texts.push(text), nets.push(c));
  }
  return { texts, nets };
}

/** A comma-separated list of networks (TRUSTED_PROXIES); empty text: none. */
export const parseNetworkList = (text: string): Cidr[] =>
  text.trim() ? parseNetworks(text.split(',').map((e) => e.trim())).nets : [];

/** Is the address (text) inside one of the networks? Not an address: no. */
export function inNetworks(nets: readonly Cidr[], address: string): boolean {
  const parsed = parseAddress(address);
  if (!parsed) return false;
  const a = comparable(parsed);
  return nets.some((n) => n.family === a.family && n.network <= a.hex && a.hex <= n.broadcast);
}

/**
 * Who a request comes from: the socket's peer, unless that peer is a trusted proxy; then the
 * X-Forwarded-For hops are read from the nearest back, skipping trusted ones, and the first
 * untrusted hop is the client (earlier hops are whatever the client wrote, so never believed). Every
 * hop trusted: the farthest one. An address is answered in its plain form (IPv4 for a mapped one).
 */
export function clientAddress(peer: string, forwardedFor: string | string[] | undefined, trusted: readonly Cidr[]) {
  const plain = (text: string) => {
    const a = parseAddress(text);
    return a ? formatCidr(comparable(a).family, comparable(a).hex, 0).replace(/\/0$/, '') : text;
  };
  if (!trusted.length || forwardedFor === undefined || !inNetworks(trusted, peer)) return plain(peer);
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    client = hops[i];
    if (!inNetworks(trusted, client)) break;
  }
  return plain(client);
}
