// How deep a JSON text nests, found on the raw bytes before any parsing: a body of millions of
// nested brackets is refused in one pass instead of being built into millions of objects.
import { fieldPath } from '../errors.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** One open container: where inside it the scan is (array index, or the byte range of the current key). */
interface Frame {
  array: boolean;
  index: number;
  keyStart: number;
  keyEnd: number;
  expectKey: boolean;
}

/** The index of the quote that closes the string opened at `open`, or -1 when it never closes. */
function closingQuote(text: Buffer, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf(QUOTE, at + 1);
    if (at === -1) return -1;
    let backslashes = 0;
    while (text[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

function keyOf(text: Buffer, frame: Frame): string {
  if (frame.keyStart < 0) return '';
  const literal = text.toString('utf8', frame.keyStart, frame.keyEnd);
  try {
    return String(JSON.parse(literal));
  } catch {
    // a key with a bad escape is named as written
    return literal;
  }
}

/**
 * The field path of the first object or array nested deeper than `maxDepth` (the outermost value is
 * level 1), or null when the text stays within it. Malformed text is not judged here: the parser does that.
 */
export function tooDeepAt(text: Buffer, maxDepth: number): string | null {
  const frames: Frame[] = [];
  let top: Frame | undefined;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i];
    if (byte === QUOTE) {
      const close = closingQuote(text, i);
      if (close === -1) return null;
      if (top && !top.array && top.expectKey) Object.assign(top, { keyStart: i, keyEnd: close + 1, expectKey: false });
      i = close; // strings are skipped whole (one native search), whatever their size
    } else if (byte === COMMA) {
      if (top?.array) top.index++;
      else if (top) top.expectKey = true;
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (frames.length === maxDepth) return fieldPath(frames.map((f) => (f.array ? String(f.index) : keyOf(text, f))));
      top = { array: byte === OPEN_ARRAY, index: 0, keyStart: -1, keyEnd: -1, expectKey: byte === OPEN_OBJECT };
      frames.push(top);
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      frames.pop();
      top = frames[frames.length - 1];
    }
  }
  return null;
}

/**
 * Whether every bracket outside strings is closed by one of its kind, in order, and every string
 * ends: what a deep text must at least be before "too deep" (422) is the right answer rather than
 * "not JSON" (400). One pass, a byte per open bracket; asked only of texts found too deep.
 */
export function bracketsBalance(text: Buffer): boolean {
  const open = new Uint8Array(text.length);
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i];
    if (byte === QUOTE) {
      i = closingQuote(text, i);
      if (i === -1) return false;
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) open[depth++] = byte;
    else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      if (depth === 0 || open[--depth] !== (byte === CLOSE_ARRAY ? OPEN_ARRAY : OPEN_OBJECT)) return false;
    }
  }
  return depth === 0;
}
