// Passwords are kept only as scrypt hashes (node:crypto), each with a salt of its own:
// `scrypt$<N>$<r>$<p>$<salt>$<hash>` (base64). A check runs scrypt whether or not the user exists,
// so a wrong or unknown name costs the same time as a right one.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** The cost: 50-200 ms per hash on the machines this runs on (issue #39), 16 MiB of memory. */
const COST = { N: 1 << 14, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
/** scrypt needs 128·N·r bytes: room for a hash made at twice today's cost. */
const MAXMEM = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, c: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...c, maxmem: MAXMEM }, (e, key) =>
      e ? reject(e) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** A hash no password matches, checked against when the user is unknown or has no password. */
const DUMMY = ['scrypt', COST.N, COST.r, COST.p, Buffer.alloc(16), Buffer.alloc(KEY_LENGTH, 1)]
  .map((x) => (Buffer.isBuffer(x) ? x.toString('base64') : String(x)))
  .join('$');

/** Whether `password` is the one `stored` was made from; `stored` null (unknown user): false, as slowly. */
export async function checkPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = (typeof stored === 'string' && stored.startsWith('scrypt$') ? stored : DUMMY).split('$');
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const expected = Buffer.from(parts[5], 'base64');
  const key = await derive(password, Buffer.from(parts[4], 'base64'), { N, r, p });
  // The dummy's key (all ones) is no scrypt output: an unknown user never matches.
  return key.length === expected.length && timingSafeEqual(key, expected);
}
