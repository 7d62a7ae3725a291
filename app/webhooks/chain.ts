// Chains of writes made in answer to webhook deliveries. Each request names its delivery in
// X-Netinv-Webhook; a receiver that writes back into the server sends that header with its write,
// and the write's change records name the delivery (`webhook_delivery`). A change's chain is then
// how many deliveries led to it: 0 for a write without the header, else the answered delivery's
// chain plus one. A change whose chain passes WEBHOOK_MAX_CHAIN is planned `skipped`: one webhook
// writing back, or several in a ring, stop after a few rounds instead of looping.
import { cmp } from '../../engine/plan/nodes.js';
import { UUID_RE } from '../../engine/schema/normalize.js';
import type { Row, Storage } from '../../storage/types.js';

export const DELIVERY_HEADER = 'X-Netinv-Webhook';
const DELIVERY = 'webhook_delivery';

/** The delivery a write's X-Netinv-Webhook names, when it is one of this store's (else null: the header is ignored). */
export async function answeredDelivery(storage: Storage, header: string | undefined): Promise<string | null> {
  const id = header?.trim().toLowerCase();
  if (!id || !UUID_RE.test(id)) return null;
  return (await storage.get(DELIVERY, id)) ? id : null;
}

/** The chain of each record that answers a delivery, by record id (records absent: chain 0). */
export async function chainOf(storage: Storage, records: readonly Row[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const named = [
    ...new Set(records.map((r) => r.webhook_delivery).filter((v): v is string => typeof v === 'string' && v !== '')),
  ];
  if (!named.length) return out;
  const chains = new Map<string, number>();
  for (let i = 0; i < named.length; i += 500) {
    const { rows } = await storage.find(
      DELIVERY,
      cmp('id', 'string', 'eq', false, named.slice(i, i + 500)),
      { limit: 500, offset: 0, ordering: [] },
      { noCount: true },
    );
    for (const d of rows) chains.set(d.id, (typeof d.chain === 'number' ? d.chain : 0) + 1);
  }
  // A delivery gone since (pruned with its record) counts as one: the change answered a webhook.
  for (const r of records)
    if (typeof r.webhook_delivery === 'string' && r.webhook_delivery)
      out.set(r.id, chains.get(r.webhook_delivery) ?? 1);
  return out;
}

/** Why a change's deliveries were not sent. */
export const skippedReason = (chain: number, max: number): string =>
  `Not sent: this change was made in answer to a chain of ${chain} webhook deliveries (X-Netinv-Webhook), more ` +
  `than WEBHOOK_MAX_CHAIN (${max}).`;
