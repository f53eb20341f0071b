// Character references of HTML text and attributes, decoded where a value must be read as the
// browser would read it (a link's target, a bounce's wording).

const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};
const REFERENCE = /&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([a-z]+));/gi;

/** Decimal, hexadecimal and the common named references; anything else is left as written. */
export function decodeEntities(text: string): string {
  return text.replace(REFERENCE, (reference, decimal?: string, hex?: string, name?: string) => {
    const code = decimal !== undefined ? Number(decimal) : hex !== undefined ? parseInt(hex, 16) : null;
    if (code !== null) return code <= 0x10ffff ? String.fromCodePoint(code) : reference;
    return NAMED[(name ?? '').toLowerCase()] ?? reference;
  });
}
