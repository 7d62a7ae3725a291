// WEBHOOK_ALLOWED_HOSTS when a webhook is made or its payload_url changed: the URL's host must be a
// listed name, an address inside a listed network, or a name that resolves to such an address
// (resolved now; each request checks again as it connects and connects only to allowed addresses,
// app/webhooks/request.ts).
import dns from 'node:dns/promises';
import {
  resolvedRefusal,
  addressAllowed,
  targetOf,
  targetVerdict,
  type HostRule,
} from '../../engine/changes/webhook-targets.js';
import { MSG } from '../../engine/schema/messages.js';
import type { FieldErrors } from '../../engine/schema/validate-input.js';
import type { Row, Storage } from '../../storage/types.js';
import type { RowPolicy } from '../inventory.js';

/** Why the rules refuse this URL, or null. */
export async function targetRefusal(rules: readonly HostRule[], url: URL): Promise<string | null> {
  const v = targetVerdict(rules, url);
  if (v.verdict !== 'resolve') return v.verdict === 'refused' ? v.reason : null;
  let found: string[];
  try {
    found = (await dns.lookup(targetOf(url).host, { all: true })).map((a) => a.address);
  } catch {
    found = [];
  }
  return found.some((a) => addressAllowed(rules, a, targetOf(url).port)) ? null : resolvedRefusal(url, found);
}

/**
 * The webhook row check: payload_url against the rules, when it is new (a webhook stored before the rules changed
 * can still be edited or disabled).
 */
export function webhookTargetPolicy(storage: Storage, rules: readonly HostRule[]): RowPolicy {
  return async (row: Row): Promise<FieldErrors> => {
    if (!rules.length) return {};
    let url: URL;
    try {
      url = new URL(String(row.payload_url));
    } catch {
      return {};
    } // refused by the row checks
    if ((await storage.get('webhook', row.id))?.payload_url === row.payload_url) return {};
    const reason = await targetRefusal(rules, url);
    return reason ? { payload_url: [MSG.whTarget(reason)] } : {};
  };
}
