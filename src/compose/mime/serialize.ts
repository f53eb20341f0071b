// MimeNode.build() streams through setImmediate, so it cannot run inside a store transaction.
// Our trees hold only strings and Buffers, which nodemailer's own encoders turn into the same
// bytes synchronously: the send is composed, stored and queued in one transaction.
import * as base64 from 'nodemailer/lib/base64';
import type MimeNode from 'nodemailer/lib/mime-node';
import * as qp from 'nodemailer/lib/qp';
import { base64Lines } from './large-body.js';
import { quotedPrintable } from './quoted-printable.js';

const LINE_LENGTH = 76;
/** Parts larger than this are encoded by our encoders (large-body.ts, quoted-printable.ts), smaller ones by nodemailer's. */
const LARGE_PART = 256 * 1024;

function body(content: string | Buffer, transferEncoding: string): string | Buffer {
  if (transferEncoding !== 'base64' && transferEncoding !== 'quoted-printable') return content;
  if (content.length > LARGE_PART) {
    if (transferEncoding === 'base64') return base64Lines(typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
    // quoted-printable parts of our trees are the text bodies, always strings
    if (typeof content === 'string') return quotedPrintable(content);
  }
  if (transferEncoding === 'base64') return base64.wrap(base64.encode(content), LINE_LENGTH);
  return qp.wrap(qp.encode(content), LINE_LENGTH);
}

function write(node: MimeNode, out: (string | Buffer)[]): void {
  // buildHeaders() decides the transfer encoding and writes it into the node's headers
  out.push(node.buildHeaders(), '\r\n\r\n');
  const content = node.content;
  if (content) {
    if (typeof content !== 'string' && !Buffer.isBuffer(content)) throw new TypeError('only string and Buffer content can be serialized');
    out.push(body(content, String(node.getHeader('Content-Transfer-Encoding') ?? '')));
  }
  if (!node.multipart) return;
  node.childNodes.forEach((child, i) => {
    out.push(`${i > 0 ? '\r\n' : ''}--${node.boundary}\r\n`);
    write(child, out);
  });
  out.push(`\r\n--${node.boundary}--\r\n`);
}

/** The bytes `root.build()` would produce, for a tree whose contents are strings and Buffers. */
export function serializeMime(root: MimeNode): Buffer {
  const out: (string | Buffer)[] = [];
  write(root, out);
  const raw = Buffer.concat(out.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : part)));
  // build() ends every message with a line break, completing a trailing CR
  const lastByte = raw[raw.length - 1];
  if (lastByte === 0x0a) return raw;
  return Buffer.concat([raw, Buffer.from(lastByte === 0x0d ? '\n' : '\r\n')]);
}
