// Every reach into nodemailer's internals, in one place. nodemailer is pinned to an exact version
// (package.json): each reach below names the measured reason it exists and the differential test
// that holds it to nodemailer's own behaviour; an upgrade runs those tests before anything else.
//
// 1. RootNode: MimeNode's header-key normaliser, remembered (test/root-node.test.ts).
// 2. withFastData: DATA escaping by native searches for CRLF-only chunks (test/dot-stuffing.test.ts,
//    property-tested against nodemailer's loop, and that this version still makes its streams there).
//
// Not reaches: compose/mime/serialize.ts writes what MimeNode.build() writes, synchronously, from
// the tree's public fields (test/send.test.ts compares the bytes); the outbound engine corks the
// session's socket, `_socket`, which nodemailer's typings declare (outbound/engine/connections.ts).
import type { Transform, TransformCallback } from 'node:stream';
import MimeNode from 'nodemailer/lib/mime-node';
import type SMTPConnection from 'nodemailer/lib/smtp-connection';
import { memoized } from './memo.js';

// 1. ---------------------------------------------------------------------------------------------

/** MimeNode's own key normaliser: internal, so not in its types. */
const normalize = (MimeNode.prototype as unknown as { _normalizeHeaderKey(this: MimeNode, key: string): string })._normalizeHeaderKey;
/** Header names seen at once stay few (ours and a send's own); the bound only stops endless growth. */
const normalizedKey = memoized(256, (key: string) => normalize.call(MimeNode.prototype, key));

/**
 * MimeNode normalises a header key (three regexps) each time it sets, reads or encodes a header,
 * some forty times per message for the same dozen keys: a tenth of a campaign's compose time.
 * The answers are nodemailer's own, remembered.
 */
export class RootNode extends MimeNode {
  _normalizeHeaderKey(key: string): string {
    return normalizedKey(key);
  }
}

// 2. ---------------------------------------------------------------------------------------------
//
// nodemailer escapes a message for DATA one byte at a time in JavaScript (DataStream), a tenth of
// the main thread's time in a campaign's delivery. A signed message has CRLF line ends throughout,
// so only dots at the start of a line change, and native searches find those. The bytes written
// are the same; a chunk with any other line end goes through nodemailer's own loop.

const CR = 0x0d;
const LF = 0x0a;
const DOT = 0x2e;
const STUFFED_DOT = Buffer.from('.');

/** The state nodemailer's DataStream keeps: its counts, and the last byte seen (false before the first). */
interface DataStream extends Transform {
  inByteCount: number;
  outByteCount: number;
  lastByte: number | false;
}

type TransformStep = (this: DataStream, chunk: Buffer | string, encoding: BufferEncoding, done: TransformCallback) => void;

/** Whether every line end in the chunk is CRLF, the byte before it counted (a CR at its very end is for the next chunk to judge). */
function crlfOnly(chunk: Buffer, before: number | false): boolean {
  if (before === CR && chunk[0] !== LF) return false;
  for (let lf = chunk.indexOf(LF); lf >= 0; lf = chunk.indexOf(LF, lf + 1)) if ((lf === 0 ? before : chunk[lf - 1]) !== CR) return false;
  for (let cr = chunk.indexOf(CR); cr >= 0 && cr + 1 < chunk.length; cr = chunk.indexOf(CR, cr + 1)) if (chunk[cr + 1] !== LF) return false;
  return true;
}

/** DataStream's step with the fast path in front of `own`, nodemailer's loop. */
export function fastDataStep(own: TransformStep): TransformStep {
  return function (chunk, encoding, done) {
    if (typeof chunk === 'string' || chunk.length === 0 || !crlfOnly(chunk, this.lastByte)) return own.call(this, chunk, encoding, done);
    const pieces: Buffer[] = [];
    let from = 0;
    const stuffAt = (at: number) => {
      pieces.push(chunk.subarray(from, at), STUFFED_DOT);
      from = at;
    };
    if (chunk[0] === DOT && (this.lastByte === LF || this.lastByte === false)) stuffAt(0);
    for (let at = chunk.indexOf('\n.'); at >= 0; at = chunk.indexOf('\n.', at + 1)) stuffAt(at + 1);
    const out = pieces.length === 0 ? chunk : Buffer.concat([...pieces, chunk.subarray(from)]);
    this.inByteCount += chunk.length;
    this.outByteCount += out.length;
    this.lastByte = chunk[chunk.length - 1]!;
    this.push(out);
    done();
  };
}

interface SendStreams {
  _createSendStream?: (this: SMTPConnection, callback: unknown) => DataStream;
}

/** Whether this nodemailer still makes its DATA streams where the fast step is put in (a test holds it to that). */
export const canSpeedUpData = (connection: SMTPConnection): boolean => typeof (connection as unknown as SendStreams)._createSendStream === 'function';

/** Gives the connection's DATA streams the fast step; a nodemailer that makes them elsewhere keeps its own. */
export function withFastData(connection: SMTPConnection): SMTPConnection {
  if (!canSpeedUpData(connection)) return connection;
  const streams = connection as unknown as Required<SendStreams>;
  const create = streams._createSendStream;
  streams._createSendStream = function (callback) {
    const stream = create.call(this, callback);
    stream._transform = fastDataStep(stream._transform as TransformStep);
    return stream;
  };
  return connection;
}
