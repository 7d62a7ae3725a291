// Addresses as numbers, for ordering blocks and measuring how much of a prefix is used.

/** The address of `a.b.c.d` or an IPv6 text as a BigInt (null when it is neither). */
export function addressValue(text: string): bigint | null {
  if (text.includes('.') && !text.includes(':')) {
    const parts = text.split('.').map(Number);
    if (parts.length !== 4 || parts.some((p) => !(p >= 0 && p <= 255))) return null;
    return parts.reduce((n, p) => (n << 8n) + BigInt(p), 0n);
  }
  const [head, tail] = text.split('::');
  const groups = (s?: string) => (s ? s.split(':') : []);
  const h = groups(head);
  const t = tail === undefined ? [] : groups(tail);
  const all = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  if (all.length !== 8) return null;
  return all.reduce((n, g) => (n << 16n) + BigInt(parseInt(g || '0', 16)), 0n);
}

export interface Block {
  readonly network: bigint;
  readonly length: number;
  readonly family: 4 | 6;
}

export function parseBlock(cidr: string): Block | null {
  const [addr, len] = cidr.split('/');
  const network = addressValue(addr);
  if (network === null) return null;
  const family = addr.includes(':') ? 6 : 4;
  return { network, length: Number(len ?? (family === 4 ? 32 : 128)), family };
}

/** Addresses in a block, as a BigInt. */
export function blockSize(b: Block): bigint {
  return 1n << BigInt((b.family === 4 ? 32 : 128) - b.length);
}

/** Share of `whole` covered by blocks not in `free` (free blocks lie inside `whole`), 0..1. */
export function usedShare(whole: Block, free: readonly Block[]): number {
  const size = blockSize(whole);
  const freeSum = free.reduce((s, b) => s + blockSize(b), 0n);
  const used = size - freeSum;
  return Number((used * 10000n) / size) / 10000;
}
