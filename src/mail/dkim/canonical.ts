// Relaxed canonicalization (RFC 6376 3.4.2 and 3.4.4) of text read as latin1, one character per byte.
// Only SP and HTAB are whitespace here: bytes that decode to other spaces stay as they are.

/** `name:value` of one header field: name lower-cased, unfolded, runs of whitespace as one space, none around the colon or at the end. */
export function relaxedHeader(field: string): string {
  const colon = field.indexOf(':');
  const name = field.slice(0, colon).replace(/[ \t]+$/, '').toLowerCase();
  const value = field
    .slice(colon + 1)
    .replace(/\r\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .replace(/^ | $/g, '');
  return `${name}:${value}`;
}

/** The body with runs of whitespace as one space, none at line ends, no empty lines at the end; CRLF-terminated unless empty. */
export function relaxedBody(body: string): string {
  const lines = body
    .replace(/[ \t]+/g, ' ')
    .replace(/ (?=\r\n|$)/g, '')
    .replace(/(?:\r\n)+$/, '');
  return lines === '' ? '' : `${lines}\r\n`;
}
