// How a password is judged wherever one is proved (sign-in, a password change, an invitation
// accepted by an account that has one): one scrypt whatever the account, one answer for every
// wrong pair, and the throttle's place taken before the verdict.
import { ApiError } from '../errors.js';
import { verifyAgainstDecoy, verifyPassword } from './passwords.js';
import type { User } from './store.js';
import type { LoginThrottle } from './throttle.js';

/** One answer for an unknown email, a wrong password and a disabled user: nothing tells them apart. */
export const wrongPair = () =>
  new ApiError(401, 'INVALID_CREDENTIALS', 'The email or the password is not right', { suggestion: 'Check both, or ask an owner for a new setup link' });

const throttled = (waitMs: number) => {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new ApiError(429, 'RATE_LIMIT_EXCEEDED', `Too many failed sign-ins: try again in ${seconds} seconds`, {
    details: { retryAfter: seconds },
    suggestion: `Retry after ${seconds} seconds`,
    headers: { 'Retry-After': String(seconds) },
  });
};

/** Whether the password is the user's; always one scrypt, whether the user exists, has a password or not. */
export async function passwordMatches(user: User | null, password: string): Promise<boolean> {
  if (!user?.passwordHash) return verifyAgainstDecoy(password);
  const ok = await verifyPassword(password, user.passwordHash);
  return ok && !user.disabled;
}

/**
 * Judges one attempt while it holds its place in the throttle (429 when it may not have one): the
 * place is taken before `judge` runs, so attempts sent at once are bounded as if they came one by one.
 */
export async function judged(throttle: LoginThrottle, address: string, account: string, judge: () => Promise<boolean>): Promise<boolean> {
  const place = throttle.take(address, account);
  if (typeof place === 'number') throw throttled(place);
  let verdict: boolean | null = null;
  try {
    verdict = await judge();
    return verdict;
  } finally {
    place.settle(verdict);
  }
}
