// A linear HTML-to-text conversion for pages too large for html-to-text, whose cost and memory
// grow many times faster than the page (seconds and hundreds of MB for a 16 MB page).
import { decodeHTML } from 'entities';

const SKIPPED = new Set(['head', 'style', 'script', 'title']);
const BLOCKS = new Set(['p', 'div', 'br', 'tr', 'li', 'ul', 'ol', 'table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'hr', 'section', 'article']);
const TAG_NAME = /^<\/?([a-z][a-z0-9]*)/i;

/** Tags dropped (block tags become line breaks), skipped elements left out, entities decoded, blank runs collapsed. */
export function plainTextOf(html: string): string {
  const lower = html.toLowerCase();
  const out: string[] = [];
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open === -1) {
      out.push(html.slice(at));
      break;
    }
    out.push(html.slice(at, open));
    const close = html.indexOf('>', open);
    if (close === -1) break;
    const name = TAG_NAME.exec(html.slice(open, Math.min(close + 1, open + 40)))?.[1]?.toLowerCase();
    at = close + 1;
    if (!name) continue;
    if (SKIPPED.has(name) && html[open + 1] !== '/') {
      // Every search starts where the last one ended: linear, whatever the input.
      const end = lower.indexOf(`</${name}`, at);
      at = end === -1 ? html.length : Math.max(lower.indexOf('>', end) + 1, end + 1);
    } else if (BLOCKS.has(name)) {
      out.push('\n');
    }
  }
  // decoded once the tags are gone, so a decoded `<` is text, never a tag
  return decodeHTML(out.join(''))
    // only runs and other blanks (a no-break space reads as a space): replacing every single space would
    // build a string of millions of pieces
    .replace(/[ \t\f\v\r\u00a0]{2,}|[\t\f\v\r\u00a0]/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
