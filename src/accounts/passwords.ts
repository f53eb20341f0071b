// Passwords are kept as scrypt hashes (node:crypto) in a self-describing string, so the cost can
// grow later without breaking the hashes already stored:  scrypt$N=32768,r=8,p=1$<salt>$<hash>
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 1024;

/**
 * N=2^15, r=8, p=1: 32 MB and about 100 ms of one core per hash (twice Django's scrypt default),
 * run on libuv's threads, so four logins at once hold 128 MB and the event loop never waits. The
 * cost is written into each hash: raising it later leaves the stored hashes working.
 */
const COST = { N: 32768, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  // maxmem above the 128*N*r the parameters need (Node's default of 32 MB is exactly that, and refuses it)
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key))));
}

const encode = (cost: typeof COST, salt: Buffer, key: Buffer) => `scrypt$N=${cost.N},r=${cost.r},p=${cost.p}$${salt.toString('base64')}$${key.toString('base64')}`;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  return encode(COST, salt, await derive(password, salt, COST));
}

const STORED = /^scrypt\$N=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;

/** Whether `password` matches a stored hash; a malformed hash matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = STORED.exec(stored);
  if (!m) return false;
  const cost = { N: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  const expected = Buffer.from(m[5]!, 'base64');
  const key = await derive(password, Buffer.from(m[4]!, 'base64'), cost);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash no password matches: an unknown email costs the same scrypt as a known one. */
let decoy: Promise<string> | null = null;
/** Makes the decoy ahead (at start), so not even the first unknown email takes longer than a known one. */
export const prepareDecoy = (): Promise<string> => (decoy ??= hashPassword(randomBytes(32).toString('hex')));

export async function verifyAgainstDecoy(password: string): Promise<false> {
  await verifyPassword(password, await prepareDecoy());
  return false;
}

/** Why a new password is refused, or null: the one rule of every form that sets one. */
export function passwordProblem(password: string): string | null {
  if ([...password].length < PASSWORD_MIN) return `At least ${PASSWORD_MIN} characters`;
  if ([...password].length > PASSWORD_MAX) return `At most ${PASSWORD_MAX} characters`;
  return null;
}
