// Email address syntax, with internationalised domains: `ann@bücher.de` is accepted and its domain
// becomes the A-label (`ann@xn--bcher-kva.de`), the form DNS, SMTP and case-insensitive matching use.
import { normalizeDomain } from './domain-name.js';

/** RFC 5322 dot-atom: the local part every API field accepts (quoted local parts are not). */
const LOCAL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/i;
const MAX_LOCAL = 64;

export interface EmailAddress {
  local: string;
  /** The domain in ASCII: as written when it was a plain host name (case kept), its A-label form otherwise. */
  domain: string;
  /** `local@domain`, what is stored and matched. */
  address: string;
}

/** Parses an address; null when the syntax is not one the API accepts. */
export function parseEmailAddress(text: string): EmailAddress | null {
  const at = text.lastIndexOf('@');
  if (at <= 0 || at > MAX_LOCAL) return null;
  const local = text.slice(0, at);
  if (!LOCAL.test(local)) return null;
  const written = text.slice(at + 1);
  const normal = normalizeDomain(written);
  if (!normal) return null;
  // an address is stored as given; only what DNS cannot take as written (Unicode, a trailing dot) changes
  const domain = normal === written.toLowerCase() ? written : normal;
  return { local, domain, address: `${local}@${domain}` };
}

export const isEmailAddress = (text: string): boolean => parseEmailAddress(text) !== null;
