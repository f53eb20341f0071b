// The email-safety rules the visual editor's HTML keeps, as one function that runs in the browser
// (page.evaluate: DOMParser reads the HTML as a mail client's engine would). Layout by tables
// (role="presentation", no cell spacing or border), styles inline only, every image with a width
// and alternative text, no classes, scripts, style sheets, event handlers or CSS layout that
// Outlook's Word engine or Gmail drop.

/** What the rules read of an element (the tests' compilation has no DOM types: the function runs in the page). */
interface PageElement {
  tagName: string;
  outerHTML: string;
  hasAttribute(name: string): boolean;
  getAttribute(name: string): string | null;
  getAttributeNames(): string[];
}
type PageDomParser = new () => { parseFromString(html: string, type: string): { body: { querySelectorAll(selector: string): Iterable<PageElement> } } };

/** The problems of `html`, each naming the rule and the element; none for an email-safe body. Self-contained: it is serialised into the page. */
export function emailSafetyProblems(html: string): string[] {
  const Parser = (globalThis as unknown as { DOMParser: PageDomParser }).DOMParser;
  const doc = new Parser().parseFromString(html, 'text/html');
  const problems: string[] = [];
  const name = (el: PageElement) => el.outerHTML.slice(0, 80);
  for (const el of doc.body.querySelectorAll('*')) {
    const tag = el.tagName.toLowerCase();
    if (['script', 'style', 'link', 'iframe', 'form', 'object', 'embed', 'svg', 'video', 'audio'].includes(tag)) problems.push(`no <${tag}>: ${name(el)}`);
    if (el.hasAttribute('class')) problems.push(`no class attribute: ${name(el)}`);
    for (const attr of el.getAttributeNames()) if (attr.startsWith('on')) problems.push(`no event handler: ${name(el)}`);
    const style = el.getAttribute('style') ?? '';
    if (/display\s*:\s*(flex|grid)|position\s*:|float\s*:/i.test(style)) problems.push(`no CSS layout (flex, grid, position, float): ${name(el)}`);
    if (tag === 'img') {
      if (!/^\d+$/.test(el.getAttribute('width') ?? '')) problems.push(`an image needs a width attribute in pixels: ${name(el)}`);
      if (!el.hasAttribute('alt')) problems.push(`an image needs alt text: ${name(el)}`);
    }
    if (tag === 'table') {
      const expected = { role: 'presentation', cellpadding: '0', cellspacing: '0', border: '0' };
      for (const [attr, value] of Object.entries(expected)) if (el.getAttribute(attr) !== value) problems.push(`a layout table needs ${attr}="${value}": ${name(el)}`);
    }
    if (tag === 'a' && !el.getAttribute('href')) problems.push(`a link needs an address: ${name(el)}`);
    if (el.hasAttribute('data-block') && tag !== 'table') problems.push(`a block is a table: ${name(el)}`);
  }
  return problems;
}
