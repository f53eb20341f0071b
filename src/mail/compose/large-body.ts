// Transfer encodings for large parts, written straight into Buffers. nodemailer's encoders build
// strings piece by piece, which for a part of megabytes costs several times its size in memory.
// Small parts keep nodemailer's encoders (the bytes MimeNode.build() writes).

const LINE = 76;
const HEX = Buffer.from('0123456789ABCDEF', 'latin1');
const CRLF = [0x0d, 0x0a];

/** Bytes of a UTF-8 sequence by its first byte (1 for a stray continuation byte). */
const sequenceLength = (lead: number) => (lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1);
/** RFC 2045 6.7: printable ASCII but `=` is written as it is (1); blanks are, unless they end a line (2); the rest is escaped (0). */
const KIND = new Uint8Array(256).map((_, b) => (b >= 0x21 && b <= 0x7e && b !== 0x3d ? 1 : b === 0x20 || b === 0x09 ? 2 : 0));
/** The soft break's `=` takes the 76th column. */
const LAST_COLUMN = LINE - 1;

/**
 * Quoted-printable with soft breaks so no line passes 76 characters. Line breaks of the input
 * (CRLF, as the composer normalises them) stay line breaks; a UTF-8 sequence is never split
 * across a soft break. The answer is a view of a larger buffer: callers copy it on (concat).
 */
export function quotedPrintable(input: Buffer): Buffer {
  const len = input.length;
  // every byte takes three characters at most, plus a soft break every 25 bytes at worst
  const out = Buffer.allocUnsafe(len * 3 + Math.ceil(len / 25) * 3 + 3);
  let pos = 0;
  let column = 0;
  let i = 0;
  while (i < len) {
    const b = input[i]!;
    const kind = KIND[b]!;
    if (kind === 1 || (kind === 2 && i + 1 < len && input[i + 1] !== 0x0d && input[i + 1] !== 0x0a)) {
      if (column === LAST_COLUMN) {
        out[pos++] = 0x3d;
        out[pos++] = 0x0d;
        out[pos++] = 0x0a;
        column = 0;
      }
      out[pos++] = b;
      column++;
      i++;
      continue;
    }
    if (b === 0x0d && input[i + 1] === 0x0a) {
      out[pos++] = 0x0d;
      out[pos++] = 0x0a;
      column = 0;
      i += 2;
      continue;
    }
    // escaped: a lone byte, or every byte of a multi-byte sequence, which stays on one line
    const n = b < 0x80 ? 1 : Math.min(sequenceLength(b), len - i);
    if (column + 3 * n > LAST_COLUMN) {
      out[pos++] = 0x3d;
      out[pos++] = 0x0d;
      out[pos++] = 0x0a;
      column = 0;
    }
    for (const end = i + n; i < end; i++) {
      const c = input[i]!;
      out[pos++] = 0x3d;
      out[pos++] = HEX[c >> 4]!;
      out[pos++] = HEX[c & 15]!;
    }
    column += 3 * n;
  }
  return out.subarray(0, pos);
}

/** Base64 in lines of 76 characters, each ended by CRLF but the last. */
export function base64Lines(input: Buffer): Buffer {
  const perLine = (LINE / 4) * 3;
  const lines = Math.ceil(input.length / perLine);
  const out = Buffer.allocUnsafe(Math.ceil(input.length / 3) * 4 + Math.max(lines - 1, 0) * 2);
  let pos = 0;
  for (let start = 0; start < input.length; start += perLine) {
    if (start > 0) {
      out[pos++] = CRLF[0]!;
      out[pos++] = CRLF[1]!;
    }
    pos += out.write(input.toString('base64', start, Math.min(start + perLine, input.length)), pos, 'latin1');
  }
  return out.subarray(0, pos);
}
