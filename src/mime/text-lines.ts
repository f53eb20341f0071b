// The line breaks of a message, counted before mailparser (a submission) or mailparser and
// mailauth (inbound mail) read it. mailparser normalises each text part's line breaks with a global
// replace, and V8 keeps every match of one until it is done: 40 MB of text in 20-byte lines
// (2 million) needed a 256 MB heap, blank lines more than 512 MB. The decoded text's breaks are
// counted here as the parts stream by, in a few KB: quoted-printable and plain parts from their
// bytes, base64 parts decoded a slice at a time. The message's own lines are what a DKIM verifier
// pays for (mailauth canonicalises a body line by line, ~3 µs a line that needs rewriting).
import { once } from 'node:events';
import type { Transform } from 'node:stream';
import { finished } from 'node:stream/promises';
import { Splitter, type MimeNode } from '@zone-eu/mailsplit';

/** Line breaks of the text of one message at most: 40 MB of text in lines of 40 characters. */
export const MAX_TEXT_LINES = 1_000_000;

/** Lines of one message at most, as it is written: 40 MB in lines of 40 bytes (base64 and quoted-printable write 76). */
export const MAX_MESSAGE_LINES = 1_000_000;

const LF = 0x0a;
const CR = 0x0d;
const EQUALS = 0x3d;
const SLICE = 64 * 1024;
/** What mailparser reads as text rather than as an attachment (with its default options). */
const TEXT_TYPES = new Set(['text/plain', 'text/html', 'message/delivery-status']);

function isText(node: MimeNode): boolean {
  const type = node.contentType || (node.root ? 'text/plain' : '');
  return !node.multipart && TEXT_TYPES.has(type) && (!node.disposition || node.disposition === 'inline');
}

/** Counts the line breaks of one part's decoded text from its bytes as they come. */
interface BreakCounter {
  write(bytes: Buffer): void;
  /** Resolves with the count once the part's bytes are all written. */
  end(): Promise<number>;
}

/** Plain bytes (7bit, 8bit, binary): every LF. */
function plainBreaks(): BreakCounter {
  let breaks = 0;
  return {
    write: (bytes) => {
      for (let at = bytes.indexOf(LF); at !== -1; at = bytes.indexOf(LF, at + 1)) breaks++;
    },
    end: async () => breaks,
  };
}

/**
 * Quoted-printable: an LF is a line break unless its line ends in `=` (blanks and CR aside), a
 * soft break; an `=0A` escape is one too. Read byte by byte, across slices: libqp's decoder holds
 * the whole part as strings and runs global replaces over it, more than a 128 MB heap for 38 MB.
 */
function quotedPrintableBreaks(): BreakCounter {
  let breaks = 0;
  /** The last byte of the line so far that is not a blank or CR. */
  let lastMark = 0;
  /** The bytes of an escape read so far (`=`, `=0`), across slices. */
  let escape = '';
  return {
    write: (bytes) => {
      for (let i = 0; i < bytes.length; i++) {
        const b = bytes[i]!;
        if (escape) {
          escape += String.fromCharCode(b);
          if (escape.length === 3) {
            if (escape.toUpperCase() === '=0A') breaks++;
            escape = '';
          } else if (escape !== '=0') escape = '';
        }
        if (b === LF) {
          if (lastMark !== EQUALS) breaks++;
          lastMark = 0;
          escape = '';
        } else if (b !== CR && b !== 0x20 && b !== 0x09) {
          lastMark = b;
          if (b === EQUALS && !escape) escape = '=';
        }
      }
    },
    end: async () => breaks,
  };
}

/** `promise`, with its failure observed now: it is awaited later, and meanwhile must not count as an unhandled rejection. */
function observed<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

/** Base64: decoded a slice at a time (libbase64's decoder streams), every LF of the result. */
function decodedBreaks(decoder: Transform): BreakCounter {
  const plain = plainBreaks();
  decoder.on('data', (bytes: Buffer) => plain.write(bytes));
  const done = observed(finished(decoder));
  return {
    write: (bytes) => decoder.write(bytes),
    end: async () => {
      decoder.end();
      await done;
      return plain.end();
    },
  };
}

function counterOf(node: MimeNode): BreakCounter {
  if (node.encoding === 'base64') return decodedBreaks(node.getDecoder() as Transform);
  if (node.encoding === 'quoted-printable') return quotedPrintableBreaks();
  return plainBreaks();
}

/**
 * Whether the decoded text parts of `raw` hold more than MAX_TEXT_LINES line breaks. A message no
 * larger than that many bytes cannot (base64 decodes four bytes to three): it is not read at all.
 */
export async function tooManyTextLines(raw: Buffer): Promise<boolean> {
  if (raw.length <= MAX_TEXT_LINES) return false;
  const counts: Promise<number>[] = [];
  let counter: BreakCounter | null = null;
  const splitter = new Splitter();
  splitter.on('data', (chunk) => {
    if (chunk.type === 'node') {
      if (counter) counts.push(observed(counter.end()));
      counter = isText(chunk) ? counterOf(chunk) : null;
    } else if (chunk.type === 'body') counter?.write(chunk.value);
  });
  const split = observed(finished(splitter));
  // in slices, as mailparser feeds it: the parts' bodies come out as views of each slice
  for (let at = 0; at < raw.length; at += SLICE) if (!splitter.write(raw.subarray(at, at + SLICE))) await once(splitter, 'drain');
  splitter.end();
  await split;
  if (counter) counts.push((counter as BreakCounter).end());
  const breaks = (await Promise.all(counts)).reduce((sum, n) => sum + n, 0);
  return breaks > MAX_TEXT_LINES;
}

/** The line breaks of `raw`, counted up to `atMost` + 1 (past that, the exact number does not matter). */
export function lineBreaks(raw: Buffer, atMost = Number.POSITIVE_INFINITY): number {
  let lines = 0;
  for (let at = raw.indexOf(LF); at !== -1 && lines <= atMost; at = raw.indexOf(LF, at + 1)) lines++;
  return lines;
}

/** Whether `raw` is written in more than MAX_MESSAGE_LINES lines. */
export const tooManyMessageLines = (raw: Buffer): boolean => raw.length > MAX_MESSAGE_LINES && lineBreaks(raw, MAX_MESSAGE_LINES) > MAX_MESSAGE_LINES;
