// IP allocation as NetBox and Nautobot have it (available-prefixes, available-ips of a prefix): the
// free space inside a prefix, and allocations that take the first fits in address order and
// create real prefixes / IP addresses through the inventory service (same fields, same checks).
// Allocations that could hand out the same block or address run one at a time, against every
// process on the store (Storage.serialized): the free space is read under the lock and the objects
// are written before it is released.
import type { KeyedWrite } from './write-keys.js';
import { formatAddress, formatCidr, maxLength, parseCidr, type Family } from '../engine/net/ip.js';
import {
  allocateBlocks,
  bigOf,
  freeAddresses,
  freeBlocks,
  hexOf,
  knownPart,
  spanOf,
  type Block,
  type Span,
} from '../engine/allocation/free-space.js';
import { and, net } from '../engine/plan/nodes.js';
import { MSG } from '../engine/schema/messages.js';
import { resource } from '../engine/schema/registry.js';
import { prefix as prefixDef } from '../engine/schema/resources/prefix.js';
import { rowAs } from '../engine/schema/row-types.js';
import type { FieldErrors } from '../engine/schema/validate-input.js';
import type { Principal } from './principal.js';
import type { NetBlock, Page, Row } from '../storage/types.js';
import type { Inventory, WriteResult } from './inventory.js';

/** Spans asked of the store at first; each time that falls short, eight times as many. */
const FIRST_ASK = 64;
const GROWTH = 8;

/** The first of the prefixes a plan finds, shortest length first: the outermost of nested ones. */
const OUTERMOST: Page = { limit: 1, offset: 0, ordering: [{ field: 'prefix_length', desc: false }] };

/** A prefix row as a block to allocate in. */
interface Parent {
  readonly family: Family;
  readonly block: Block;
  readonly net: NetBlock;
  readonly span: Span;
  readonly text: string;
}

function parentOf(row: Row): Parent {
  const c = parseCidr(rowAs(prefixDef, row).prefix)!;
  const block = { network: bigOf(c.network), length: c.length };
  return {
    family: c.family,
    block,
    text: formatCidr(c.family, c.network, c.length),
    net: { family: c.family, network: c.network, broadcast: c.broadcast, length: c.length },
    span: spanOf(c.family, block),
  };
}

/** Where an allocation reads from: a store's hint (its generation, and the stretch known full), or the start. */
interface Start {
  readonly gen: number | null;
  readonly from: bigint | null;
  readonly full: Span | null;
}

/** What one free-space read makes of the spans known so far: an answer, or null to read further. */
type Attempt<T> = (within: Span, used: Span[], complete: boolean) => T | null;

/** NetBox's answer items (vrf: this product has none). */
export interface AvailablePrefix {
  family: Family;
  prefix: string;
  vrf: null;
}
export interface AvailableIp {
  family: Family;
  address: string;
  vrf: null;
}

const isObject = (b: unknown): b is Record<string, unknown> => typeof b === 'object' && b !== null && !Array.isArray(b);

export class Allocation {
  constructor(private readonly inventory: Inventory) {}

  /** The free blocks inside the prefix (the largest CIDR blocks, in address order), at most `limit`. */
  async availablePrefixes(parentRow: Row, limit: number): Promise<AvailablePrefix[]> {
    const p = parentOf(parentRow);
    const blocks = await this.read('prefix', p, (within, used, complete) => {
      const out: Block[] = [];
      for (const b of freeBlocks(p.family, within, used)) if (out.push(b) >= limit) break;
      return out.length >= limit || complete ? out : null;
    });
    return blocks.map((b) => ({
      family: p.family,
      prefix: formatCidr(p.family, hexOf(p.family, b.network), b.length),
      vrf: null,
    }));
  }

  /** The first free addresses of the prefix, at most `limit`, written with the prefix's length. */
  async availableIps(parentRow: Row, limit: number): Promise<AvailableIp[]> {
    const p = parentOf(parentRow);
    const found = await this.freeAddresses(p, limit);
    return found.map((a) => ({ family: p.family, address: this.addressText(p, a), vrf: null }));
  }

  /**
   * Prefixes of the lengths asked (`prefix_length` in each body; the other fields as a prefix
   * create takes them), each the first fit in what the ones before left: all created, or none.
   */
  async allocatePrefixes(
    parentRow: Row,
    bodies: readonly unknown[],
    key?: KeyedWrite,
    who?: Principal,
  ): Promise<WriteResult<Row[]>> {
    const p = parentOf(parentRow);
    const errors = bodies.map((b) => this.lengthErrors(p, b));
    if (errors.some((e) => Object.keys(e).length)) return { ok: false, kind: 'invalid', errors };
    const asked = bodies as Record<string, unknown>[];
    const lengths = asked.map((b) => b.prefix_length as number);
    // A hint of the longest length asked holds for every request of the list (no free /26 means no free /24).
    const longest = Math.max(...lengths);
    return this.locked('prefixes', p, async () => {
      const start = await this.start('prefix', p, longest);
      const got = await this.read(
        'prefix',
        p,
        (within, used, complete) => {
          const r = allocateBlocks(p.family, within, used, lengths);
          return 'blocks' in r || complete ? r : null;
        },
        start,
      );
      if ('failed' in got) {
        const which = bodies.length > 1 ? ` (request ${got.failed + 1} of ${bodies.length})` : '';
        return this.conflict(
          `Insufficient space is available to accommodate the requested prefix size(s): no free ` +
            `/${lengths[got.failed]} is left in ${p.text}${which}.`,
        );
      }
      const rows = asked.map((b, i) => {
        const { prefix_length: _, ...fields } = b;
        return { ...fields, prefix: formatCidr(p.family, hexOf(p.family, got.blocks[i].network), lengths[i]) };
      });
      const out = await this.inventory.create(resource('prefix'), rows, key, who);
      // Each request of the longest length took the first free block of it: none is left before the last one's end.
      const ends = got.blocks.filter((b) => b.length === longest).map((b) => spanOf(p.family, b).hi + 1n);
      // The write has committed: a hint not kept only makes the next allocation start further back.
      if (out.ok) await this.remember('prefix', p, longest, ends[ends.length - 1], start).catch(() => undefined);
      return out;
    });
  }

  /**
   * One IP address per body (the other fields as an IP address create takes them), the first free
   * addresses in order, each with the prefix's length: all created, or none.
   */
  async allocateIps(
    parentRow: Row,
    bodies: readonly unknown[],
    key?: KeyedWrite,
    who?: Principal,
  ): Promise<WriteResult<Row[]>> {
    const p = parentOf(parentRow);
    const errors = bodies.map((b): FieldErrors => (isObject(b) ? {} : { non_field_errors: [MSG.object] }));
    if (errors.some((e) => Object.keys(e).length)) return { ok: false, kind: 'invalid', errors };
    return this.locked('ips', p, async () => {
      const start = await this.start('ip_address', p, maxLength(p.family));
      const found = await this.freeAddresses(p, bodies.length, start);
      if (found.length < bodies.length)
        return this.conflict(
          `An insufficient number of IP addresses are available within ${p.text} (${bodies.length} requested, ` +
            `${found.length} available).`,
        );
      const rows = (bodies as Record<string, unknown>[]).map((b, i) => ({
        ...b,
        address: this.addressText(p, found[i]),
      }));
      const out = await this.inventory.create(resource('ip_address'), rows, key, who);
      if (out.ok)
        await this.remember('ip_address', p, maxLength(p.family), found[found.length - 1] + 1n, start).catch(
          () => undefined,
        );
      return out;
    });
  }

  private freeAddresses(p: Parent, limit: number, start?: Start): Promise<bigint[]> {
    return this.read(
      'ip_address',
      p,
      (within, used, complete) => {
        const out = freeAddresses(p.family, p.block, within, used, limit);
        return out.length >= limit || complete ? out : null;
      },
      start,
    );
  }

  /**
   * Where an allocation of `length` starts reading: after the stretch a store's hint knows full
   * (for prefixes, also to the end of a child that reaches past the hint), or at the parent's start.
   */
  private async start(resourceName: 'prefix' | 'ip_address', p: Parent, length: number): Promise<Start> {
    const hint = await this.inventory.storage.allocationHint(resourceName, p.net, length);
    const from = hint?.nextAt ? bigOf(hint.nextAt) : null;
    if (!hint || from === null || from <= p.span.lo || from > p.span.hi)
      return { gen: hint?.gen ?? null, from: null, full: null };
    let end = from - 1n;
    if (resourceName === 'prefix') {
      const at = hexOf(p.family, from);
      const plan = and([
        net('network', 'contains_or_equal', p.family, at, at, maxLength(p.family)),
        net('network', 'contained', p.family, p.net.network, p.net.broadcast, p.block.length),
      ]);
      const outer = (await this.inventory.find(resource('prefix'), plan, OUTERMOST, { noCount: true })).rows[0];
      if (outer) {
        const c = parseCidr(rowAs(prefixDef, outer).prefix)!;
        end = bigOf(c.broadcast) > end ? bigOf(c.broadcast) : end;
      }
    }
    return { gen: hint.gen, from, full: { lo: p.span.lo, hi: end } };
  }

  /** Records where the next allocation of `length` may start (stores that keep hints). */
  private async remember(
    resourceName: 'prefix' | 'ip_address',
    p: Parent,
    length: number,
    next: bigint,
    start: Start,
  ): Promise<void> {
    if (start.gen === null || next > p.span.hi) return;
    await this.inventory.storage.saveAllocationHint(resourceName, p.net, length, hexOf(p.family, next), start.gen);
  }

  private addressText(p: Parent, a: bigint): string {
    return `${formatAddress({ family: p.family, hex: hexOf(p.family, a) })}/${p.block.length}`;
  }

  /**
   * Reads what is taken inside the parent, more each time `attempt` falls short, until it answers;
   * from a hint's point on when `start` has one (what lies before it counts as taken).
   */
  private async read<T>(
    resourceName: 'prefix' | 'ip_address',
    p: Parent,
    attempt: Attempt<T>,
    start?: Start,
  ): Promise<T> {
    const from = start?.from ? hexOf(p.family, start.from) : undefined;
    for (let max = FIRST_ASK; ; max *= GROWTH) {
      const got = await this.inventory.storage.coveredSpans(resourceName, p.net, max, from);
      const { within, used } = knownPart(p.span, got);
      const out = attempt(within, start?.full ? [start.full, ...used] : used, got.complete);
      if (out !== null) return out;
    }
  }

  /**
   * fn under the lock its allocations need. Prefixes: the parent's block (duplicates of it share
   * the name); allocations in a parent and in one of its children never meet, as the child's
   * space is taken in the parent. Addresses: those of a child lie in its parent too, so the lock
   * is named after the outermost prefix containing the parent, which both share.
   */
  private async locked<T>(kind: 'prefixes' | 'ips', p: Parent, fn: () => Promise<T>): Promise<T> {
    let name = p.text;
    if (kind === 'ips') {
      const outermost = await this.inventory.find(
        resource('prefix'),
        net('network', 'contains_or_equal', p.family, p.net.network, p.net.broadcast, p.block.length),
        OUTERMOST,
        { noCount: true },
      );
      if (outermost.rows[0]) name = parentOf(outermost.rows[0]).text;
    }
    // MySQL lock names hold 64 characters: "netinv." + this is at most 58.
    return this.inventory.storage.serialized(`alloc-${kind}:${name}`, fn);
  }

  /** `prefix_length` of an available-prefixes request: longer than the parent's, within the family. */
  private lengthErrors(p: Parent, b: unknown): FieldErrors {
    if (!isObject(b)) return { non_field_errors: [MSG.object] };
    const l = b.prefix_length;
    if (l === undefined || l === null) return { prefix_length: [MSG.required] };
    if (typeof l !== 'number' || !Number.isInteger(l)) return { prefix_length: [MSG.integer] };
    const max = maxLength(p.family);
    if (l <= p.block.length || l > max)
      return {
        prefix_length: [
          `Invalid prefix length (${l}) for ${p.text}: it must be longer than the parent's /${p.block.length} and ` +
            `at most /${max} (IPv${p.family}).`,
        ],
      };
    return {};
  }

  private conflict(detail: string): WriteResult<never> {
    return { ok: false, kind: 'conflict', errors: { detail, code: 'insufficient_space' } };
  }
}
