// The session cookie, written by hand: Koa's cookie writer refuses `Secure` on a plain connection,
// which is what the daemon sees behind a TLS proxy (publicUrl https).
export const SESSION_COOKIE = 'postmill_session';

/** Read through the URL parser: a scheme is case-insensitive, and `HTTPS://` is https too. */
const secure = (publicUrl: string | null) => (publicUrl !== null && new URL(publicUrl).protocol === 'https:' ? '; Secure' : '');

export const sessionCookie = (token: string, maxAgeMs: number, publicUrl: string | null) =>
  `${SESSION_COOKIE}=${token}; Path=/; Max-Age=${Math.floor(maxAgeMs / 1000)}; HttpOnly; SameSite=Strict${secure(publicUrl)}`;

export const clearedCookie = (publicUrl: string | null) => `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict${secure(publicUrl)}`;
