// A linear HTML-to-text conversion for pages too large for html-to-text, whose cost and memory
// grow many times faster than the page (seconds and hundreds of MB for a 16 MB page). Its memory
// stays a small multiple of the page whatever the page holds: one pass writes the text as bytes,
// decoding entities and collapsing blanks on the way. Strings per tag and global replaces did not:
// V8 keeps every match of a global replace, and a 38 MB page of short lines, tags or entities took
// more than 512 MB of heap. References are decoded by the entities package (every named one).
import { decodeHTML } from 'entities';

const SKIPPED = new Set(['head', 'style', 'script', 'title']);
const BLOCKS = new Set(['p', 'div', 'br', 'tr', 'li', 'ul', 'ol', 'table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'hr', 'section', 'article']);
const ENTITY = /^&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z][a-z0-9]{1,31});$/i;
/** The same, where a page's text has one at a given place (the common case, read at once). */
const ENTITY_AT = /&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z][a-z0-9]{1,31});/iy;
/** What an entity can start with, up to its `;`. */
const ENTITY_START = /^&(#(x[0-9a-f]{0,6}|[0-9]{0,7})?|([a-z][a-z0-9]{0,31})?)$/i;
const TAG_NAME = /^<\/?([a-z][a-z0-9]*)/i;

const LF = 0x0a;
const SPACE = 0x20;
const AMPERSAND = 0x26;
/** Blanks collapse to one space: space, tab, vertical tab, form feed, carriage return. */
const isBlank = (c: number) => c === SPACE || c === 0x09 || c === 0x0b || c === 0x0c || c === 0x0d;

/** A whole reference as the browser reads it in text (`&nbsp;` as a plain space); one it does not know stays as written. */
const decodeEntity = (whole: string): string => decodeHTML(whole).replace('\u00a0', ' ');

/**
 * The text as it is written: entities decoded, a run of blanks one space, no blank next to a line
 * break, at most two line breaks in a row, nothing blank at the start. Bytes, one per character
 * until the first character past U+00FF, then two.
 */
class TextWriter {
  private codes: Uint8Array | Uint16Array = new Uint8Array(64 * 1024);
  private length = 0;
  private space = false;
  private newlines = 0;
  /** An entity being read: `&` and what followed it so far. */
  private entity = '';

  /** One character of the page's text (a block tag's line break included). */
  char(c: number): void {
    if (this.entity === '' && c !== AMPERSAND) return this.put(c);
    const candidate = this.entity + String.fromCharCode(c);
    const whole = ENTITY.exec(candidate);
    if (whole) {
      this.entity = '';
      return this.putText(decodeEntity(candidate));
    }
    if (ENTITY_START.test(candidate)) {
      this.entity = candidate;
      return;
    }
    // not an entity: its `&` is text, and what followed is read again (it may start one)
    const rest = candidate.slice(1);
    this.entity = '';
    this.put(AMPERSAND);
    for (let i = 0; i < rest.length; i++) this.char(rest.charCodeAt(i));
  }

  text(html: string, from: number, to: number): void {
    for (let i = from; i < to; i++) {
      const c = html.charCodeAt(i);
      if (c === AMPERSAND && this.entity === '') {
        ENTITY_AT.lastIndex = i;
        const whole = ENTITY_AT.exec(html);
        if (whole && ENTITY_AT.lastIndex <= to) {
          this.putText(decodeEntity(whole[0]));
          i = ENTITY_AT.lastIndex - 1;
          continue;
        }
      }
      this.char(c);
    }
  }

  /** The text; a pending `&...` that never became an entity is text too. */
  done(): string {
    const pending = this.entity;
    this.entity = '';
    this.putText(pending);
    const bytes = this.codes.subarray(0, this.length);
    const text = bytes instanceof Uint8Array ? Buffer.from(bytes.buffer, 0, this.length).toString('latin1') : Buffer.from(bytes.buffer, 0, this.length * 2).toString('utf16le');
    return text.trim();
  }

  private putText(text: string): void {
    for (let i = 0; i < text.length; i++) this.put(text.charCodeAt(i));
  }

  private put(c: number): void {
    if (isBlank(c)) {
      if (this.newlines === 0) this.space = true;
      return;
    }
    if (c === LF) {
      this.space = false;
      this.newlines++;
      return;
    }
    if (this.length > 0) {
      if (this.newlines > 0) for (let n = Math.min(this.newlines, 2); n > 0; n--) this.write(LF);
      else if (this.space) this.write(SPACE);
    }
    this.newlines = 0;
    this.space = false;
    this.write(c);
  }

  private write(c: number): void {
    if (this.length === this.codes.length || (c > 0xff && this.codes instanceof Uint8Array)) {
      const wider = new (c > 0xff || this.codes instanceof Uint16Array ? Uint16Array : Uint8Array)(this.length === this.codes.length ? this.codes.length * 2 : this.codes.length);
      wider.set(this.codes.subarray(0, this.length));
      this.codes = wider;
    }
    this.codes[this.length++] = c;
  }
}

/** Where the element `name` that starts at `from` ends: after its closing tag, or at the end of the page. */
function endOfSkipped(html: string, name: string, from: number): number {
  for (let at = html.indexOf('</', from); at !== -1; at = html.indexOf('</', at + 2)) {
    // Every search starts where the last one ended: linear, whatever the input.
    if (html.slice(at + 2, at + 2 + name.length).toLowerCase() === name) return Math.max(html.indexOf('>', at) + 1, at + 1);
  }
  return html.length;
}

/** Tags dropped (block tags become line breaks), skipped elements left out, entities decoded, blank runs collapsed. */
export function plainTextOf(html: string): string {
  const out = new TextWriter();
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open === -1) {
      out.text(html, at, html.length);
      break;
    }
    out.text(html, at, open);
    const close = html.indexOf('>', open);
    if (close === -1) break;
    const name = TAG_NAME.exec(html.slice(open, Math.min(close + 1, open + 40)))?.[1]?.toLowerCase();
    at = close + 1;
    if (!name) continue;
    if (SKIPPED.has(name) && html[open + 1] !== '/') at = endOfSkipped(html, name, at);
    else if (BLOCKS.has(name)) out.char(LF);
  }
  return out.done();
}
