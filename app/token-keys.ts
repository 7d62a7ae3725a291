// The two forms of API key, as NetBox 4.5 has them. v1: 40 hex characters, stored as their SHA-256.
// v2: `nbt_<key id>.<secret>` (a 12-character key id and a 40-character secret, letters and digits),
// stored as the key id, the id of the pepper (API_TOKEN_PEPPERS) and the HMAC-SHA256 of the secret
// keyed with that pepper: a stolen database gives neither the secret nor a way to test guesses
// without the pepper. The plaintext is answered once, when the token is made.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const V2_PREFIX = 'nbt_';
const KEY_ID_LENGTH = 12;
const SECRET_LENGTH = 40;
const CHARSET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** `nbt_<key id>.<secret>`: [1] the key id, [2] the secret. */
const V2_FORM = /^nbt_([A-Za-z0-9]{12})\.([A-Za-z0-9]{1,256})$/;

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** Pepper id -> pepper, as configured (ids are whole numbers, the newest is the highest). */
export type Peppers = Readonly<Record<string, string>>;

/** The pepper new v2 tokens are hashed with: the highest id (NetBox's rule), or null when none is set. */
export function currentPepper(peppers: Peppers): { id: number; pepper: string } | null {
  const ids = Object.keys(peppers)
    .map(Number)
    .sort((a, b) => a - b);
  return ids.length ? { id: ids[ids.length - 1], pepper: peppers[String(ids[ids.length - 1])] } : null;
}

export const digestOf = (pepper: string, secret: string): string =>
  createHmac('sha256', pepper).update(secret).digest('hex');

/** Random letters and digits (each of the 62 equally likely: bytes past the last whole 62 are redrawn). */
function randomText(length: number): string {
  let out = '';
  while (out.length < length)
    for (const b of randomBytes(length)) if (b < 248 && out.length < length) out += CHARSET[b % 62];
  return out;
}

/** What a new key is stored as, and the plaintext answered once. */
export interface NewKey {
  /** What the Authorization header carries after `Token ` / `Bearer `. */
  readonly plaintext: string;
  /** v2: the secret alone (NetBox's `token` field); v1: the whole key. */
  readonly secret: string;
  readonly stored: { key_hash: string; key_tail: string; key_id: string | null; pepper_id: number | null };
}

/** A new v1 key (40 hex characters, or `given`: a configured one). */
export function newV1Key(given?: string): NewKey {
  const plaintext = given ?? randomBytes(20).toString('hex');
  return {
    plaintext,
    secret: plaintext,
    stored: { key_hash: hashKey(plaintext), key_tail: plaintext.slice(-4), key_id: null, pepper_id: null },
  };
}

/** A new v2 key, hashed with the current pepper. */
export function newV2Key(pepper: { id: number; pepper: string }): NewKey {
  const keyId = randomText(KEY_ID_LENGTH),
    secret = randomText(SECRET_LENGTH);
  return {
    plaintext: `${V2_PREFIX}${keyId}.${secret}`,
    secret,
    stored: {
      key_hash: digestOf(pepper.pepper, secret),
      key_tail: secret.slice(-4),
      key_id: keyId,
      pepper_id: pepper.id,
    },
  };
}

/** The key id and secret of a presented v2 key, or null when it is not of that form. */
export function v2Parts(presented: string): { keyId: string; secret: string } | null {
  const m = V2_FORM.exec(presented);
  return m ? { keyId: m[1], secret: m[2] } : null;
}

/** Does `secret` match a stored v2 token (its pepper still configured)? Compared in constant time. */
export function v2Matches(peppers: Peppers, row: { pepper_id?: unknown; key_hash?: unknown }, secret: string): boolean {
  const pepper = peppers[String(row.pepper_id)];
  if (pepper === undefined || typeof row.key_hash !== 'string') return false;
  const a = Buffer.from(digestOf(pepper, secret), 'hex'),
    b = Buffer.from(row.key_hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
