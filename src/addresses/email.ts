// Email address syntax, with internationalised domains: `ann@bücher.de` is accepted and its domain
// becomes the A-label (`ann@xn--bcher-kva.de`), the form DNS, SMTP and case-insensitive matching use.
import { domainToASCII, domainToUnicode } from 'node:url';

/** RFC 5322 dot-atom: the local part every API field accepts (quoted local parts are not). */
const LOCAL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/i;
/** Letters, digits and hyphens, at least two labels of 1-63 characters. */
const HOSTNAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const MAX_LOCAL = 64;
const MAX_DOMAIN = 253;

export interface EmailAddress {
  local: string;
  /** The domain in ASCII: unchanged when it was ASCII (case kept), the punycode A-label form otherwise. */
  domain: string;
  /** `local@domain`, what is stored and matched. */
  address: string;
}

/** An A-label whose Unicode form starts or ends with a hyphen (WHATWG's conversion lets those through). */
const badALabel = (label: string) => /^xn--/i.test(label) && /^-|-$/.test(domainToUnicode(label));

/** The domain's ASCII form, or null when it is not a valid host name. */
export function asciiDomain(domain: string): string | null {
  // ASCII names are kept as written (an address is stored as given); only Unicode ones are converted.
  const ascii = /^[\u0000-\u007f]*$/.test(domain) ? domain : domainToASCII(domain);
  if (ascii === '' || ascii.length > MAX_DOMAIN || !HOSTNAME.test(ascii)) return null;
  return ascii.split('.').some(badALabel) ? null : ascii;
}

/** Parses an address; null when the syntax is not one the API accepts. */
export function parseEmailAddress(text: string): EmailAddress | null {
  const at = text.lastIndexOf('@');
  if (at <= 0 || at > MAX_LOCAL) return null;
  const local = text.slice(0, at);
  if (!LOCAL.test(local)) return null;
  const domain = asciiDomain(text.slice(at + 1));
  return domain ? { local, domain, address: `${local}@${domain}` } : null;
}

export const isEmailAddress = (text: string): boolean => parseEmailAddress(text) !== null;
