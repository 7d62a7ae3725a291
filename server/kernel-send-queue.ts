// What the kernel still holds of what a TCP socket wrote: bytes the peer has not acknowledged (its
// send queue; `ss`'s Send-Q). Node can neither shrink a socket's send buffer (SO_SNDBUF) nor ask
// for this number (SIOCOUTQ), and for a peer that stops reading Linux grows the buffer up to
// tcp_wmem's maximum (4 MiB by default): a bound on a process's own unsent bytes leaves that much
// more per connection in the kernel. On Linux the number is in /proc/net/tcp and tcp6 (`tx_queue`);
// one read of both serves every socket asked about. The kernel writes those files slowly (about
// 25 us per socket of the machine: 15-25 ms with 600 sockets here), so the caller reads them seldom
// (an asynchronous read, in libuv's thread pool, stalled behind other work in tests). Elsewhere (or
// unreadable) the number is unknown: null.
import fs from 'node:fs';
import os from 'node:os';
import type { Socket } from 'node:net';

/** Each file with the hex digits of its addresses. */
const FILES = [
  ['/proc/net/tcp', 8],
  ['/proc/net/tcp6', 32],
] as const;
const LITTLE = os.endianness() === 'LE';

/** A socket's row key in /proc/net/tcp*: `LOCAL:PORT REMOTE:PORT` as the kernel prints them; null when unknown. */
export function procKey(socket: Socket): string | null {
  const { localAddress, localPort, remoteAddress, remotePort } = socket;
  if (!localAddress || !remoteAddress || localPort === undefined || remotePort === undefined) return null;
  const local = hexAddress(localAddress),
    remote = hexAddress(remoteAddress);
  return local && remote ? `${local}:${hexPort(localPort)} ${remote}:${hexPort(remotePort)}` : null;
}

const hexPort = (p: number) => p.toString(16).toUpperCase().padStart(4, '0');

/** The kernel prints an address as 32-bit words in host order, each as %08X. */
function hexAddress(address: string): string | null {
  const bytes = address.includes(':') ? ipv6Bytes(address) : ipv4Bytes(address);
  if (!bytes) return null;
  let out = '';
  for (let w = 0; w < bytes.length; w += 4) {
    const word = bytes.slice(w, w + 4);
    if (LITTLE) word.reverse();
    for (const b of word) out += b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

function ipv4Bytes(a: string): number[] | null {
  const parts = a.split('.').map(Number);
  return parts.length === 4 && parts.every((n) => Number.isInteger(n) && n >= 0 && n <= 255) ? parts : null;
}

function ipv6Bytes(address: string): number[] | null {
  let a = address.replace(/%.*$/, ''); // a zone id
  let tail: number[] = [];
  const dotted = /:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (dotted) {
    const v4 = ipv4Bytes(dotted[1]);
    if (!v4) return null;
    tail = v4;
    a = a.slice(0, dotted.index + 1) + '0:0'; // two groups stand in for it, replaced below
  }
  const [head, rest] = a.split('::');
  const groups = (s: string | undefined) => (s ? s.split(':') : []);
  const h = groups(head),
    r = groups(rest);
  const all = rest === undefined ? h : [...h, ...Array<string>(8 - h.length - r.length).fill('0'), ...r];
  if (all.length !== 8) return null;
  const bytes = all.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 255];
  });
  if (bytes.some((b) => Number.isNaN(b))) return null;
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** Every TCP socket's send queue by procKey (those with one only); null where /proc/net/tcp cannot be read. */
export function readSendQueues(): Map<string, number> | null {
  const out = new Map<string, number>();
  let read = false;
  for (const [file, width] of FILES) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'latin1');
    } catch {
      continue;
    }
    read = true;
    // `   0: LOCAL:PORT REMOTE:PORT ST TX_QUEUE:RX_QUEUE ...`, fixed widths after the slot number
    // (addresses of `width` hex digits): read by offset, a row with an empty queue skipped unread.
    const pair = 2 * (width + 5) + 1;
    for (let at = text.indexOf('\n') + 1; at > 0 && at < text.length;) {
      const from = text.indexOf(':', at) + 2;
      const tx = text.slice(from + pair + 4, from + pair + 12);
      if (tx !== '00000000' && from > 1) out.set(text.slice(from, from + pair), parseInt(tx, 16));
      at = text.indexOf('\n', at) + 1;
    }
  }
  return read ? out : null;
}
