import { decodeHTMLAttribute } from 'entities';
import { escapeHtml } from '../render/render.js';
import { memoizedSource } from '../memo.js';
import { trackableUrl } from './url.js';

export interface TrackingLinks {
  /** The pixel URL of this email. */
  openUrl: string;
  /** The tracked redirect for one original URL. */
  clickUrl(url: string): string;
  /** Links under this base (unsubscribe, manage) stay as they are. */
  ownBase: string;
}

/** An anchor's href: the tag up to the value, the quote, the value. */
export const HREF = /(<a\b[^>]*?\bhref\s*=\s*)(["'])(.*?)\2/gis;
/** The open pixel goes before the first of these, or at the end. */
export const BODY_CLOSE = /<\/body\s*>/i;
/**
 * An href as written: the URL it names, and the target its click link signs (null: left alone).
 * A campaign's links repeat in every message, so a thousand distinct ones remembered suffice.
 */
const readHref = memoizedSource(1024, (value: string): { url: string; target: string | null } => {
  const url = decodeHTMLAttribute(value.trim());
  return { url, target: /^https?:\/\//i.test(url) ? trackableUrl(url) : null };
});

/** One anchor's href (as HREF matched it) with its value replaced by the click link, or as it was. */
export function trackedHref(start: string, quote: string, value: string, links: TrackingLinks): string {
  const { url, target } = readHref(value);
  const written = target === null || url.startsWith(links.ownBase) ? value : escapeHtml(links.clickUrl(target));
  return `${start}${quote}${written}${quote}`;
}

export const openPixel = (links: TrackingLinks): string =>
  `<img src="${escapeHtml(links.openUrl)}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0">`;

/**
 * Rewrites http(s) links of anchor tags to the click redirect and adds the open pixel. The target is
 * signed in its normalised spelling (trackableUrl), so the redirect is always a valid Location;
 * a link that cannot be made valid, mailto:, anchors and our own unsubscribe/manage links are left alone.
 */
export function addTracking(html: string, links: TrackingLinks): string {
  const rewritten = html.replace(HREF, (_, start: string, quote: string, value: string) => trackedHref(start, quote, value, links));
  const close = rewritten.search(BODY_CLOSE);
  const pixel = openPixel(links);
  return close === -1 ? rewritten + pixel : rewritten.slice(0, close) + pixel + rewritten.slice(close);
}
