// A template's HTML rendered with tracking, the links found once per template instead of once per
// message: a campaign renders the same template for every recipient, and scanning each rendering
// for anchors cost more than all the rest of its tracking.
import { memoizedSource } from '../memo.js';
import { htmlTemplateParts, renderHtml, renderHtmlValues, type Scope } from '../render/render.js';
import { addTracking, BODY_CLOSE, HREF, openPixel, trackedHref, type TrackingLinks } from './rewrite.js';

/** Template text, or the index of a placeholder's value. */
type Piece = string | number;
interface Link {
  start: string;
  quote: string;
  /** The href's value as written when it holds no placeholder (the same string every time), else its pieces. */
  value: string | Piece[];
}
/** What a rendering is made of, in order: text and values, links, and where the open pixel goes. */
type Step = Piece | Link | typeof PIXEL;
const PIXEL = Symbol('pixel');

/** Stands for each placeholder while the template is read; a template holding it is not planned. */
const SLOT = '\uE000';
const SLOT_AFTER_BODY_CLOSE = new RegExp(`</body\\s*${SLOT}`, 'i');
/** Where HREF could start: `<a` not followed by a word character (a slot is none). */
const ANCHOR_OPEN = /<a(?![a-z0-9_])/gi;

/**
 * The steps that render `source` with tracking, or null when a value could change which links or
 * `</body>` addTracking finds. Escaped values hold none of `<>"'`, so they cannot open a tag or close
 * a quote; they can only change an anchor where they stand between `<a` and its href's opening
 * quote (or its `>`, when it has no href), or right after `</body`. Raw values can do anything.
 */
function planOf(source: string): Step[] | null {
  const { literals, raw } = htmlTemplateParts(source);
  if (raw.includes(true) || literals.some((literal) => literal.includes(SLOT))) return null;
  const marked = literals.join(SLOT);
  if (SLOT_AFTER_BODY_CLOSE.test(marked)) return null;
  const links = [...marked.matchAll(HREF)].map((m) => ({ at: m.index, end: m.index + m[0].length, start: m[1]!, quote: m[2]!, value: m[3]! }));
  const linkAt = new Map(links.map((link) => [link.at, link]));
  for (const open of marked.matchAll(ANCHOR_OPEN)) {
    const link = linkAt.get(open.index);
    const tagEnd = marked.indexOf('>', open.index);
    const end = link ? link.at + link.start.length + 1 : tagEnd === -1 ? marked.length : tagEnd;
    if (marked.slice(open.index, end).includes(SLOT)) return null;
  }
  const close = marked.search(BODY_CLOSE);
  const pixelAt = close === -1 ? marked.length : close;
  // addTracking looks for `</body>` after rewriting: one inside a link's value may be gone by then
  if (links.some((link) => pixelAt > link.at && pixelAt < link.end)) return null;

  const steps: Step[] = [];
  let slot = 0;
  const piecesOf = (text: string): Piece[] => text.split(SLOT).flatMap((literal, i) => [...(i > 0 ? [slot++] : []), ...(literal === '' ? [] : [literal])]);
  let position = 0;
  const textUpTo = (end: number) => {
    steps.push(...piecesOf(marked.slice(position, end)));
    position = end;
  };
  let pixelWritten = false;
  const pixelIfBefore = (end: number) => {
    if (pixelWritten || pixelAt > end) return;
    textUpTo(pixelAt);
    steps.push(PIXEL);
    pixelWritten = true;
  };
  for (const link of links) {
    pixelIfBefore(link.at);
    textUpTo(link.at);
    steps.push({ start: link.start, quote: link.quote, value: link.value.includes(SLOT) ? piecesOf(link.value) : link.value });
    position = link.end;
  }
  pixelIfBefore(marked.length);
  textUpTo(marked.length);
  return steps;
}

const plan = memoizedSource(256, planOf);

/** renderHtml then addTracking, in one pass over the planned template when it has a plan. */
export function renderTrackedHtml(source: string, scope: Scope, links: TrackingLinks): string {
  const steps = plan(source);
  if (steps === null) return addTracking(renderHtml(source, scope), links);
  const values = renderHtmlValues(source, scope);
  const text = (piece: Piece) => (typeof piece === 'string' ? piece : values[piece]!);
  let out = '';
  for (const step of steps) {
    if (step === PIXEL) out += openPixel(links);
    else if (typeof step === 'object') out += trackedHref(step.start, step.quote, typeof step.value === 'string' ? step.value : step.value.map(text).join(''), links);
    else out += text(step);
  }
  return out;
}
