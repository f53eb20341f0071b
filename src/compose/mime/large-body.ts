// Base64 written straight into a Buffer, for large parts and the text parts of alternative messages.
// nodemailer's encoder builds strings piece by piece, which for a part of megabytes costs several
// times its size in memory; small parts of MIME trees keep it (the bytes MimeNode.build() writes).

const LINE = 76;
const CRLF = [0x0d, 0x0a];

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
