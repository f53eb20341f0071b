// The text/plain alternative of every message, derived from its HTML part.
import { compile, type FormatCallback } from 'html-to-text';
import { plainTextOf } from './plain-text.js';

// Images carry no text of their own: keep the alt text, drop the src (tracking pixels, logos).
const imageAltOnly: FormatCallback = (elem, _walk, builder) => {
  const alt: unknown = elem.attribs?.alt;
  if (typeof alt === 'string' && alt.trim() !== '') builder.addInline(alt.trim());
};

// Mail HTML uses tables for layout: give each row and cell its own line instead of gluing cells together.
const LAYOUT_CELL = { format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } };

// Compiled once: building the selector tree is the expensive part of a conversion.
const convert = compile({
  wordwrap: 78,
  formatters: { imageAltOnly },
  selectors: [
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    { selector: 'img', format: 'imageAltOnly' },
    { selector: 'tr', ...LAYOUT_CELL },
    { selector: 'td', ...LAYOUT_CELL },
    { selector: 'th', ...LAYOUT_CELL },
    { selector: 'head', format: 'skip' },
    { selector: 'title', format: 'skip' },
    { selector: 'style', format: 'skip' },
    { selector: 'script', format: 'skip' },
  ],
});

/** Pages larger than this are converted by the linear `plainTextOf` instead. */
const LARGE_PAGE = 256 * 1024;

export function htmlToText(html: string): string {
  return html.length > LARGE_PAGE ? plainTextOf(html) : convert(html);
}
