// Ids listed in a bulk write: an object named twice is refused, as a bulk PATCH or PUT refuses it
// (app/inventory.ts, updateOnce), with the same per-item body.
import { MSG } from '../../engine/schema/messages.js';

/**
 * The 400 body of a bulk request naming an object more than once (ids compared as stored: lower
 * case), one entry per item in the order given ({} for an item without a problem); null when
 * every id is listed once.
 */
export function listedTwiceErrors(ids: readonly string[]): Record<string, string[]>[] | null {
  const seen = new Set<string>();
  let twice = false;
  const errors = ids.map((id): Record<string, string[]> => {
    const key = id.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      return {};
    }
    twice = true;
    return { id: [MSG.listedTwice] };
  });
  return twice ? errors : null;
}
