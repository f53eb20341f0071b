// The one spelling of a link target that tokens sign and redirects send.

/** Longer targets are left unrewritten: their click token would pass the token size limit (tokens.ts). */
export const MAX_TRACKED_URL = 4096;
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/**
 * The URL as a redirect can carry it: parsed as browsers do (WHATWG URL: IDN hosts in punycode,
 * spaces, controls and non-ASCII percent-encoded), http(s) only, printable ASCII, at most
 * MAX_TRACKED_URL characters. Null when it cannot be made valid.
 */
export function trackableUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // not a URL a browser would follow: nothing to track or redirect to
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const href = url.href;
  return href.length <= MAX_TRACKED_URL && PRINTABLE_ASCII.test(href) ? href : null;
}
