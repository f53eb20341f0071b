// The header section of a message is checked at DATA, before the 250: one that no parser takes
// (larger than the MIME parser's limit) or that costs seconds to authenticate is refused with a 5xx
// instead of being accepted and then failing to process.

/** mailparser refuses a larger header block of a part (its maxHeadSize). */
export const MAX_HEADER_BYTES = 1024 * 1024;
/** Real mail carries a few hundred header lines at most; each costs DKIM and DMARC work. */
export const MAX_HEADER_LINES = 10_000;
/**
 * Each DKIM signature can ask for a hash of the whole body of its own (another canonicalisation,
 * hash or `l=` length), and a lookup of its key: RFC 6376 (6.1) lets a verifier bound how many it
 * tries. Real mail carries one to three.
 */
export const MAX_DKIM_SIGNATURES = 10;

const LF = 0x0a;
const CR = 0x0d;
const DKIM_FIELD = /^dkim-signature[ \t]*:/i;

/** Why the header section of `raw` is refused, or null when it is within the limits. */
export function headerSectionRefusal(raw: Buffer): string | null {
  let lines = 0;
  let signatures = 0;
  let start = 0;
  while (start < raw.length) {
    const end = raw.indexOf(LF, start);
    const lineEnd = end === -1 ? raw.length : end;
    // An empty line (CRLF or a bare LF) ends the header section.
    if (lineEnd === start || (lineEnd === start + 1 && raw[start] === CR)) return null;
    if (++lines > MAX_HEADER_LINES) return `The header section has more than ${MAX_HEADER_LINES} lines`;
    if (lineEnd + 1 > MAX_HEADER_BYTES) return `The header section is larger than ${MAX_HEADER_BYTES} bytes`;
    if ((raw[start] | 0x20) === 0x64 && DKIM_FIELD.test(raw.toString('latin1', start, Math.min(lineEnd, start + 32)))) {
      if (++signatures > MAX_DKIM_SIGNATURES) return `The message carries more than ${MAX_DKIM_SIGNATURES} DKIM signatures`;
    }
    if (end === -1) return null;
    start = end + 1;
  }
  return null;
}
