// Quoted-printable (RFC 2045 6.7) of a text body, straight from the string: line breaks of any kind
// become CRLF on the way, and runs of characters written as they are go out as slices, found by a
// regexp rather than looked at one by one. Every message of a campaign encodes its HTML and text here:
// 4x the rate of libqp, nodemailer's codec, which the tests read it back with (`npm run bench quoted-printable`).

const LINE = 76;
/** The soft break's `=` takes the 76th column. */
const LAST_COLUMN = LINE - 1;
const SOFT_BREAK = '=\r\n';
/** Written out to a Buffer at this length, so a body of megabytes never lives as one string of pieces. */
const FLUSH_CHARS = 64 * 1024;
/** What is not written as it is, blanks aside (they are, unless they end a line). */
const SPECIAL = /[^\t\x20-\x3c\x3e-\x7e]/g;
const HEX = '0123456789ABCDEF';
const escapedByte = (b: number) => `=${HEX[b >> 4]}${HEX[b & 15]}`;
const ESCAPED_ASCII = Array.from({ length: 128 }, (_, b) => escapedByte(b));
const CR = 13;
const LF = 10;
const isBlank = (c: number) => c === 0x20 || c === 0x09;

/** A code point as its escaped UTF-8 bytes, which stay together on one line. */
function escapedCodePoint(cp: number): string {
  if (cp < 0x80) return ESCAPED_ASCII[cp]!;
  const bytes = cp < 0x800 ? [0xc0 | (cp >> 6)] : cp < 0x10000 ? [0xe0 | (cp >> 12)] : [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63)];
  if (cp >= 0x800) bytes.push(0x80 | ((cp >> 6) & 63));
  bytes.push(0x80 | (cp & 63));
  return bytes.map(escapedByte).join('');
}

/** The code point at `i` and its UTF-16 length; a lone surrogate is U+FFFD, as UTF-8 encoding writes it. */
function codePointAt(text: string, i: number): [number, number] {
  const c = text.charCodeAt(i);
  if (c < 0xd800 || c > 0xdfff) return [c, 1];
  const next = text.charCodeAt(i + 1);
  return c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? [0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00), 2] : [0xfffd, 1];
}

/**
 * The UTF-8 bytes of `text` in quoted-printable with soft breaks, so no line passes 76 characters.
 * CRLF, CR and LF all end a line (written CRLF); a blank that ends a line or the text is escaped;
 * a character's UTF-8 sequence is never split across a soft break.
 */
export function quotedPrintable(text: string): Buffer {
  const len = text.length;
  const written: Buffer[] = [];
  let out = '';
  let column = 0;
  let i = 0;
  const flush = () => {
    written.push(Buffer.from(out, 'latin1'));
    out = '';
  };
  const writeAsIs = (end: number) => {
    while (i < end) {
      if (column === LAST_COLUMN) {
        out += SOFT_BREAK;
        column = 0;
      }
      const stop = Math.min(end, i + LAST_COLUMN - column);
      out += text.slice(i, stop);
      column += stop - i;
      i = stop;
      if (out.length >= FLUSH_CHARS) flush();
    }
  };
  const writeEscaped = (escaped: string) => {
    if (column + escaped.length > LAST_COLUMN) {
      out += SOFT_BREAK;
      column = 0;
    }
    out += escaped;
    column += escaped.length;
  };
  while (i < len) {
    SPECIAL.lastIndex = i;
    // test() rather than exec(): no match array per special character (the class matches one unit)
    const special = SPECIAL.test(text) ? SPECIAL.lastIndex - 1 : len;
    const c = text.charCodeAt(special);
    const lineEnds = special === len || c === CR || c === LF;
    const trailingBlank = lineEnds && special > i && isBlank(text.charCodeAt(special - 1));
    writeAsIs(trailingBlank ? special - 1 : special);
    if (trailingBlank) writeEscaped(ESCAPED_ASCII[text.charCodeAt(i++)]!);
    if (special === len) break;
    if (lineEnds) {
      out += '\r\n';
      column = 0;
      i += c === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
      // a text of empty lines writes nothing else: its breaks must be flushed here too
      if (out.length >= FLUSH_CHARS) flush();
      continue;
    }
    const [cp, units] = codePointAt(text, i);
    writeEscaped(escapedCodePoint(cp));
    i += units;
    if (out.length >= FLUSH_CHARS) flush();
  }
  if (written.length === 0) return Buffer.from(out, 'latin1');
  flush();
  return Buffer.concat(written);
}
