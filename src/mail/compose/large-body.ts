// Transfer encodings for large parts, written straight into Buffers. nodemailer's encoders build
// strings piece by piece, which for a part of megabytes costs several times its size in memory.
// Small parts keep nodemailer's encoders (the bytes MimeNode.build() writes).

const LINE = 76;
const HEX = Buffer.from('0123456789ABCDEF', 'latin1');
const CRLF = [0x0d, 0x0a];

/** Bytes of a UTF-8 sequence by its first byte (1 for a stray continuation byte). */
const sequenceLength = (lead: number) => (lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1);
/** RFC 2045 6.7: printable ASCII but `=` is written as it is; so are blanks that do not end a line. */
const PRINTABLE = new Uint8Array(256).map((_, b) => (b >= 0x21 && b <= 0x7e && b !== 0x3d ? 1 : 0));

/**
 * Quoted-printable with soft breaks so no line passes 76 characters. Line breaks of the input
 * (CRLF, as the composer normalises them) stay line breaks; a UTF-8 sequence is never split
 * across a soft break.
 */
export function quotedPrintable(input: Buffer): Buffer {
  const len = input.length;
  // every byte takes three characters at most, plus a soft break every 25 bytes at worst
  const out = Buffer.allocUnsafe(len * 3 + Math.ceil(len / 25) * 3 + 3);
  let pos = 0;
  let column = 0;
  const escape = (c: number) => {
    out[pos++] = 0x3d;
    out[pos++] = HEX[c >> 4]!;
    out[pos++] = HEX[c & 15]!;
  };
  // 75: a soft break's `=` takes the 76th column
  const room = (width: number) => {
    if (column + width <= LINE - 1) return;
    out[pos++] = 0x3d;
    out[pos++] = 0x0d;
    out[pos++] = 0x0a;
    column = 0;
  };
  let i = 0;
  while (i < len) {
    const b = input[i]!;
    if (b < 0x80) {
      const next = input[i + 1];
      if (b === 0x0d && next === 0x0a) {
        out[pos++] = 0x0d;
        out[pos++] = 0x0a;
        column = 0;
        i += 2;
        continue;
      }
      const blank = b === 0x20 || b === 0x09;
      const plain = PRINTABLE[b] === 1 || (blank && next !== undefined && next !== 0x0d && next !== 0x0a);
      room(plain ? 1 : 3);
      if (plain) out[pos++] = b;
      else escape(b);
      column += plain ? 1 : 3;
      i++;
      continue;
    }
    // every byte of a multi-byte sequence is escaped: the whole sequence goes on one line
    const n = Math.min(sequenceLength(b), len - i);
    room(3 * n);
    for (let k = 0; k < n; k++) escape(input[i + k]!);
    column += 3 * n;
    i += n;
  }
  return Buffer.from(out.subarray(0, pos));
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
