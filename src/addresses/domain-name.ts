import { domainToASCII, domainToUnicode } from 'node:url';

// ASCII is limited to what a host name may hold; the URL parser would otherwise drop tabs and decode `%xx`.
const FOREIGN_ASCII = /[\x00-\x2c\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const NUMERIC = /^[0-9]+$/;

/**
 * The lower-case ASCII form of a domain name (IDNs as punycode, one trailing dot dropped),
 * or null when it is not a usable mail domain: bad labels, a single label, an IP address.
 */
export function normalizeDomain(input: string): string | null {
  if (input.length === 0 || input.length > 1024 || FOREIGN_ASCII.test(input)) return null;
  let ascii = domainToASCII(input);
  if (ascii.endsWith('.')) ascii = ascii.slice(0, -1);
  if (ascii.length === 0 || ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l)) || NUMERIC.test(labels[labels.length - 1]!)) return null;
  // the URL parser lets a Unicode label start or end with a hyphen; IDNA does not
  if (labels.some((l) => l.startsWith('xn--') && /^-|-$/.test(domainToUnicode(l)))) return null;
  return ascii;
}

/** The normalised domain of an email address, or null when it has none that is usable. */
export function domainOfAddress(address: string): string | null {
  const at = address.lastIndexOf('@');
  return at < 0 ? null : normalizeDomain(address.slice(at + 1));
}

/** The domain and each of its parents with at least two labels, most specific first. */
export function coveringNames(domain: string): string[] {
  const labels = domain.split('.');
  return labels.slice(0, -1).map((_, i) => labels.slice(i).join('.'));
}
