// Where webhooks may send (WEBHOOK_ALLOWED_HOSTS): a list of host names and CIDRs, each with an
// optional port. Pure: parsing the list, and whether a URL's host, or an address a name resolved
// to, is in it. Resolving names is the service layer's (app/webhooks/target-check.ts).
import { parseAddress, parseCidr, type Addr, type Cidr } from '../net/ip.js';

/** One entry: a host name (lower case, no trailing dot) or a network, and the port it allows (null: any). */
export interface HostRule {
  readonly text: string;
  readonly name: string | null;
  readonly cidr: Cidr | null;
  readonly port: number | null;
}

const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

function port(text: string, entry: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) < 1 || Number(text) > 65535)
    throw new Error(`"${entry}": the port must be 1 to 65535`);
  return Number(text);
}

function hostName(text: string): string | null {
  const name = text.toLowerCase().replace(/\.$/, '');
  return name.length <= 253 && name.split('.').every((l) => LABEL.test(l)) ? name : null;
}

/** One entry: `name`, `name:port`, `10.0.0.0/8`, `10.0.0.0/8:8443`, `fd00::/8`, `[fd00::/8]:8443`. */
function parseRule(entry: string): HostRule {
  let host = entry,
    portText: string | null = null;
  const bracket = /^\[([^\]]+)\](?::(.*))?$/.exec(entry);
  if (bracket) {
    host = bracket[1];
    portText = bracket[2] ?? null;
  } else if (entry.indexOf(':') === entry.lastIndexOf(':') && entry.includes(':')) {
    // one colon: host:port (a bare IPv6 has several)
    host = entry.slice(0, entry.indexOf(':'));
    portText = entry.slice(entry.indexOf(':') + 1);
  }
  const p = portText === null ? null : port(portText, entry);
  const cidr = /^[0-9a-fA-F:.]+(\/\d+)?$/.test(host) && /[:/]|^[\d.]+$/.test(host) ? parseCidr(host) : null;
  if (cidr) return { text: entry, name: null, cidr, port: p };
  if (bracket || /^[\d.]+(\/\d+)?$/.test(host) || host.includes('/'))
    throw new Error(`"${entry}" is not an address or network`);
  const name = hostName(host);
  if (!name) throw new Error(`"${entry}" is not a host name, address or network`);
  return { text: entry, name, cidr: null, port: p };
}

/**
 * The rules of a WEBHOOK_ALLOWED_HOSTS value (comma-separated; empty: no rules, any target). Throws
 * naming a bad entry.
 */
export function parseAllowedHosts(text: string): readonly HostRule[] {
  if (!text.trim()) return [];
  return text.split(',').map((e) => {
    const entry = e.trim();
    if (!entry) throw new Error('an entry is empty');
    return parseRule(entry);
  });
}

/**
 * A URL's host as rules compare it (lower case, no brackets or trailing dot) and its port (the
 * scheme's when none is written).
 */
export function targetOf(url: URL): { host: string; port: number } {
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  return { host, port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80 };
}

/** An address as rules compare it: an IPv4-mapped IPv6 address (::ffff:a.b.c.d) is the IPv4 one. */
function comparable(a: Addr): Addr {
  return a.family === 6 && a.hex.startsWith('00000000000000000000ffff') ? { family: 4, hex: a.hex.slice(24) } : a;
}

const portOk = (r: HostRule, p: number) => r.port === null || r.port === p;

/** Is this address (text) with this port inside one of the networks? */
export function addressAllowed(rules: readonly HostRule[], address: string, p: number): boolean {
  const parsed = parseAddress(address);
  if (!parsed) return false;
  const a = comparable(parsed);
  return rules.some(
    (r) =>
      r.cidr !== null &&
      portOk(r, p) &&
      r.cidr.family === a.family &&
      r.cidr.network <= a.hex &&
      a.hex <= r.cidr.broadcast,
  );
}

/**
 * What the rules say of a URL before any name is resolved: `allowed` (no rules, a listed name, an
 * address inside a listed network), `refused` (with why), or `resolve`: a name not listed that
 * only the addresses it resolves to can admit (each is then checked with addressAllowed).
 */
export function targetVerdict(
  rules: readonly HostRule[],
  url: URL,
): { verdict: 'allowed' | 'resolve' } | { verdict: 'refused'; reason: string } {
  if (!rules.length) return { verdict: 'allowed' };
  const { host, port: p } = targetOf(url);
  const shown = `${url.hostname}:${p}`;
  if (parseAddress(host)) {
    return addressAllowed(rules, host, p)
      ? { verdict: 'allowed' }
      : { verdict: 'refused', reason: `${shown} is not allowed by WEBHOOK_ALLOWED_HOSTS` };
  }
  if (rules.some((r) => r.name === host && portOk(r, p))) return { verdict: 'allowed' };
  if (rules.some((r) => r.cidr !== null && portOk(r, p))) return { verdict: 'resolve' };
  return { verdict: 'refused', reason: `${shown} is not allowed by WEBHOOK_ALLOWED_HOSTS` };
}

/** Why a name's addresses are refused. */
export const resolvedRefusal = (url: URL, addresses: readonly string[]): string =>
  `${url.hostname}:${targetOf(url).port} resolves to ${addresses.join(', ') || 'no address'}, ` +
  'which WEBHOOK_ALLOWED_HOSTS does not allow';
