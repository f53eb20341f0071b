// Inbound messages that cost a MIME parser or a DKIM verifier far more than their size suggests,
// each within the listener's limits (smtp.maxSize, the header section checked at DATA). Shared by
// test/inbound-heavy.test.ts and the inbound-heavy bench.

export const MB = 1024 * 1024;

const head = (subject: string, extra = '') => `From: stranger@client.test\r\nTo: support@inbox.test\r\nSubject: ${subject}\r\nMIME-Version: 1.0\r\n${extra}`;

/** `bytes` of `line` repeated, as one Buffer (built by doubling: no string of that size). */
function repeated(line: string, bytes: number): Buffer {
  const out = Buffer.alloc(bytes - (bytes % line.length));
  out.write(line);
  for (let filled = line.length; filled < out.length; filled *= 2) out.copy(out, filled, 0, Math.min(filled, out.length - filled));
  return out;
}

/** A text/plain body of nothing but line breaks. */
export const blankLines = (subject: string, bytes: number) => Buffer.concat([Buffer.from(head(subject) + 'Content-Type: text/plain\r\n\r\n'), repeated('\r\n', bytes)]);

/** One multipart of `count` tiny text parts, `bytes` in all (past the parser's 1,000 parts when count is larger). */
export function tinyParts(subject: string, count: number, bytes: number): Buffer {
  const per = Math.max(Math.floor(bytes / count) - 40, 4);
  const part = Buffer.concat([Buffer.from('--x\r\nContent-Type: text/plain\r\n\r\n'), repeated('a\r\n', per), Buffer.from('\r\n')]);
  const parts = Buffer.alloc(part.length * count);
  for (let i = 0; i < count; i++) part.copy(parts, i * part.length);
  return Buffer.concat([Buffer.from(head(subject) + 'Content-Type: multipart/mixed; boundary="x"\r\n\r\n'), parts, Buffer.from('--x--\r\n')]);
}

/** Parts whose own header blocks are each just under the parser's 1 MB (the top-level head is small), `bytes` in all. */
export function hugePartHeaders(subject: string, bytes: number): Buffer {
  const field = 'X-Filler: ' + 'h'.repeat(88) + '\r\n'; // 100 bytes a line
  const partHead = Buffer.from('--x\r\nContent-Type: text/plain\r\n' + field.repeat(Math.floor((MB - 4096) / field.length)) + '\r\nbody\r\n');
  const count = Math.max(Math.floor(bytes / partHead.length), 1);
  return Buffer.concat([Buffer.from(head(subject) + 'Content-Type: multipart/mixed; boundary="x"\r\n\r\n'), ...Array.from({ length: count }, () => partHead), Buffer.from('--x--\r\n')]);
}

/** Multiparts nested `depth` deep, one text part at the bottom. */
export function nestedMultiparts(subject: string, depth: number): Buffer {
  const open: string[] = [];
  const close: string[] = [];
  for (let i = 0; i < depth; i++) {
    open.push(`Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n`);
    close.push(`\r\n--b${i}--\r\n`);
  }
  return Buffer.from(`${head(subject)}${open.join('')}Content-Type: text/plain\r\n\r\nbottom${close.reverse().join('')}`);
}

/** A DKIM-Signature field with relaxed canonicalisation (its hashes are made up: it never verifies); `tags` picks the algorithm and length. */
export const relaxedSignature = (selector = 'k1', tags = 'a=rsa-sha256') =>
  `DKIM-Signature: v=1; ${tags}; c=relaxed/relaxed; d=client.test; s=${selector}; h=from:subject; bh=AAAA; b=AAAA\r\n`;

/** Signatures that each make mailauth hash a body of `lines` lines once more: another algorithm, another length (all but the last few lines). */
const distinctHashes = (lines: number) => ['a=rsa-sha256', 'a=rsa-sha1', ...Array.from({ length: 8 }, (_, i) => `a=rsa-sha256; l=${(lines - 1 - i) * 3}`)];

/**
 * `signatures` relaxed DKIM signatures (up to 10, each a hash of its own) over `lines` short body
 * lines that each need rewriting (a space before the line break): mailauth canonicalises them
 * one at a time.
 */
export const relaxedDkimLines = (subject: string, lines: number, signatures = 1) =>
  Buffer.concat([
    Buffer.from(distinctHashes(lines).slice(0, signatures).map((tags, i) => relaxedSignature(`k${i}`, tags)).join('') + head(subject) + 'Content-Type: text/plain\r\n\r\n'),
    repeated('a \r\n', lines * 4),
  ]);

/** An ordinary large message: HTML in lines of a thousand characters. */
export const largeHtml = (subject: string, bytes: number) =>
  Buffer.concat([Buffer.from(head(subject) + 'Content-Type: text/html; charset=utf-8\r\n\r\n<html><body>'), repeated('<p>' + 'word '.repeat(199) + '</p>\r\n', bytes), Buffer.from('</body></html>\r\n')]);
