// A linear HTML-to-text conversion for pages too large for html-to-text, whose cost and memory
// grow many times faster than the page (seconds and hundreds of MB for a 16 MB page).

const SKIPPED = new Set(['head', 'style', 'script', 'title']);
const BLOCKS = new Set(['p', 'div', 'br', 'tr', 'li', 'ul', 'ol', 'table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'hr', 'section', 'article']);
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };
const ENTITY = /&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi;
const TAG_NAME = /^<\/?([a-z][a-z0-9]*)/i;

function decodeEntity(whole: string, name: string): string {
  const lower = name.toLowerCase();
  if (lower.startsWith('#x') || lower.startsWith('#')) {
    const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole;
  }
  return ENTITIES[lower] ?? whole;
}

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
  return out
    .join('')
    .replace(ENTITY, decodeEntity)
    // only runs and other blanks: replacing every single space would build a string of millions of pieces
    .replace(/[ \t\f\v\r]{2,}|[\t\f\v\r]/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
