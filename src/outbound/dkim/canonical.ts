// Relaxed canonicalization (RFC 6376 3.4.2 and 3.4.4). Only SP and HTAB are whitespace here: bytes
// that decode to other spaces stay as they are. Headers are latin1 text, one character per byte;
// bodies are hashed from their bytes, the long runs of lines that need no change as they are.
import type { Hash } from 'node:crypto';

const SP = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const LF = 0x0a;
const CRLF = Buffer.from('\r\n');

/** `name:value` of one header field: name lower-cased, unfolded, runs of whitespace as one space, none around the colon or at the end. */
export function relaxedHeader(field: string): string {
  const colon = field.indexOf(':');
  const name = field.slice(0, colon).replace(/[ \t]+$/, '').toLowerCase();
  let value = field.slice(colon + 1);
  if (/[\t\r]| {2}/.test(value)) value = value.replace(/\r\n/g, '').replace(/[ \t]+/g, ' ');
  const start = value.startsWith(' ') ? 1 : 0;
  const end = value.endsWith(' ') && value.length > start ? value.length - 1 : value.length;
  return `${name}:${value.slice(start, end)}`;
}

/** The line [start, end) (without its CRLF) as relaxed canonicalization writes it. */
function relaxedLine(body: Buffer, start: number, end: number): Buffer {
  const text = body.toString('latin1', start, end).replace(/[ \t]+/g, ' ');
  return Buffer.from(text.endsWith(' ') ? text.slice(0, -1) : text, 'latin1');
}

/** Where a byte sequence next occurs from a position on, searched again only once passed. */
function nextOf(body: Buffer, needle: string | number): (from: number) => number {
  let at = -2;
  return (from) => {
    if (at !== -1 && at < from) at = body.indexOf(needle, from, 'latin1');
    return at < 0 ? body.length : at;
  };
}

/**
 * Feeds `hash` the relaxed body of `body` (CRLF line ends): runs of whitespace as one space, none
 * at line ends, no empty lines at the end, CRLF-terminated unless empty.
 */
export function hashRelaxedBody(hash: Hash, body: Buffer): void {
  // the last byte that is not whitespace or a line end: what follows its line is dropped
  let last = body.length - 1;
  while (last >= 0 && (body[last] === SP || body[last] === TAB || body[last] === CR || body[last] === LF)) last--;
  if (last < 0) return;
  const nextTab = nextOf(body, TAB);
  const nextDoubleSpace = nextOf(body, '  ');
  let run = 0; // start of the lines not hashed yet, all unchanged
  for (let start = 0; start <= last; ) {
    const lf = body.indexOf(LF, start);
    const end = lf < 0 ? body.length : lf - 1;
    const changed = (end > start && body[end - 1] === SP) || nextTab(start) < end || nextDoubleSpace(start) + 1 < end;
    if (changed) {
      if (start > run) hash.update(body.subarray(run, start));
      hash.update(relaxedLine(body, start, end));
      hash.update(CRLF);
      run = lf < 0 ? body.length : lf + 1;
    }
    if (lf < 0 || lf >= last) {
      // the last line: its own line end, whatever followed it
      if (!changed) hash.update(body.subarray(run, end)).update(CRLF);
      return;
    }
    start = lf + 1;
  }
}
