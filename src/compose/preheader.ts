// The preview text of an email (the "preheader"): the line an inbox shows after the subject. Mail
// clients take it from the first text of the body, so it leads the HTML body in an element no
// reader sees; `{{variables}}` in it are rendered like the rest of the body. The text part starts
// with it too, as its first line.

/** The element's style: hidden in every client that reads CSS, and in Outlook's Word engine (mso-hide). */
const HIDDEN = 'display:none;font-size:1px;line-height:1px;max-height:0;max-width:0;opacity:0;overflow:hidden;mso-hide:all';

/** Text as HTML text content: the characters markup would read (quotes mean nothing outside attributes). */
const asHtmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Where the content of `<body ...>` starts (0 when there is none): one pass, whatever the page holds. */
function afterBodyTag(html: string): number {
  const open = /<body[\s>\/]/i.exec(html);
  if (!open) return 0;
  const end = html.indexOf('>', open.index);
  return end === -1 ? 0 : end + 1;
}

/** The body with the preview text first: right after `<body>` in a whole document, else at the very start. */
export function withPreheader(html: string, previewText: string | null): string {
  const text = previewText?.trim() ?? '';
  if (text === '') return html;
  const element = `<div class="preheader" style="${HIDDEN}">${asHtmlText(text)}</div>`;
  const at = afterBodyTag(html);
  return html.slice(0, at) + element + html.slice(at);
}
