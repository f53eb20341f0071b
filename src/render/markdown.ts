// A Markdown body (`type: "markdown"` on /v1/send) into the HTML template it stands for. The
// placeholders are kept out of Markdown's reach and put back as written, so values are filled in
// (and HTML-escaped) afterwards exactly as in an HTML body: contact data never becomes Markdown.
import { randomBytes } from 'node:crypto';
import { Marked } from 'marked';
import { replacePlaceholders } from './render.js';

// CommonMark with GitHub's tables, strikethrough and autolinks. Raw HTML in the Markdown is kept,
// as an HTML body's markup is: both come from the holder of the secret key.
const markdown = new Marked({ gfm: true, breaks: false, async: false });

/**
 * Renders Markdown to an HTML template source. Each `{{...}}` placeholder stands aside as an
 * alphanumeric marker (which Markdown leaves alone in text, code and link targets alike) and
 * is put back afterwards; the marker carries a random nonce, so no text of the body can be one.
 */
export function markdownToHtml(source: string): string {
  const nonce = randomBytes(8).toString('hex');
  const placeholders: string[] = [];
  const marked = replacePlaceholders(source, (text) => `pm${nonce}v${placeholders.push(text) - 1}e`);
  const html = markdown.parse(marked, { async: false });
  return placeholders.length === 0 ? html : html.replace(new RegExp(`pm${nonce}v(\\d+)e`, 'g'), (_, i: string) => placeholders[Number(i)]!);
}
