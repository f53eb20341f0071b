// nodemailer escapes a message for DATA one byte at a time in JavaScript (DataStream), a tenth of
// the main thread's time in a campaign's delivery. A signed message has CRLF line ends throughout,
// so only dots at the start of a line change, and native searches find those. The bytes written
// are the same; a chunk with any other line end goes through nodemailer's own loop.
import type SMTPConnection from 'nodemailer/lib/smtp-connection';
import type { Transform, TransformCallback } from 'node:stream';

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
