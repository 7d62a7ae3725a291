// The rows bench:graphql adds to the bench dataset (generate.ts): `devices` devices with 10 interfaces each
// and one address per interface. The devices are named `bdev-…`, so they sort before the dataset's own
// `dev-…` and `devices(limit: 500)` reaches three levels; the first ADDRESS_BLOCK_SIZE addresses lie in
// ADDRESS_BLOCK (`ip_addresses(parent: …)` lists exactly them), the rest in 11.0.0.0/8.
import { fullRow } from './full-row.js';
import type { Row, Storage, WriteOp } from '../storage/types.js';
import { benchId } from './generate.js';

export const INTERFACES_PER_DEVICE = 10;
export const ADDRESS_BLOCK = '198.18.0.0/16';
export const ADDRESS_BLOCK_SIZE = 27_000;

/** Ids of their own (the dataset's codes 1–7 are taken): UUID-shaped, resource code + counter. */
const id = (code: string, i: number): string => `00000000-0000-4000-8${code}00-${i.toString(16).padStart(12, '0')}`;

/** A complete row (bench/full-row.ts). */
const row = (name: string, rowId: string, body: Record<string, unknown>): Row => fullRow(name, rowId, body);

const dotted = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

/** The i-th address: inside ADDRESS_BLOCK for the first ADDRESS_BLOCK_SIZE, then in 11.0.0.0/8. */
export function addressText(i: number): string {
  const base = i < ADDRESS_BLOCK_SIZE ? (198 * 2 ** 24 + 18 * 2 ** 16 + 1 + i) >>> 0 : 11 * 2 ** 24 + 1 + i;
  return `${dotted(base)}/24`;
}

/** Create batches: devices at the dataset's sites (round robin), then interfaces, then addresses. */
export function* deviceBatches(devices: number, sites: number, batchSize = 5000): Generator<WriteOp[]> {
  let batch: WriteOp[] = [];
  const push = function* (name: string, r: Row): Generator<WriteOp[]> {
    batch.push({ op: 'create', resource: name, row: r });
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
    }
  };
  for (let d = 0; d < devices; d++)
    yield* push(
      'device',
      row('device', id('a', d), {
        name: `bdev-${String(d).padStart(5, '0')}`,
        site: benchId('site', d % sites),
        status: 'active',
        serial: `BSN${d}`,
      }),
    );
  for (let i = 0; i < devices * INTERFACES_PER_DEVICE; i++)
    yield* push(
      'interface',
      row('interface', id('b', i), {
        device: id('a', Math.floor(i / INTERFACES_PER_DEVICE)),
        name: `xe-0/0/${i % INTERFACES_PER_DEVICE}`,
        type: '10gbase-x-sfpp',
        enabled: true,
        mtu: 9000,
      }),
    );
  for (let i = 0; i < devices * INTERFACES_PER_DEVICE; i++)
    yield* push(
      'ip_address',
      row('ip_address', id('c', i), { address: addressText(i), status: 'active', interface: id('b', i) }),
    );
  if (batch.length) yield batch;
}

/** Writes the devices, interfaces and addresses; returns the rows written. */
export async function loadDevices(storage: Storage, devices: number, sites: number): Promise<number> {
  let n = 0;
  for (const b of deviceBatches(devices, sites)) {
    await storage.apply(b, { log: false });
    n += b.length;
  }
  await storage.afterBulkLoad();
  return n;
}
