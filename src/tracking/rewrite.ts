import { decodeEntities } from '../html-entities.js';
import { escapeHtml } from '../templates/render.js';
import { trackableUrl } from './url.js';

export interface TrackingLinks {
  /** The pixel URL of this email. */
  openUrl: string;
  /** The tracked redirect for one original URL. */
  clickUrl(url: string): string;
  /** Links under this base (unsubscribe, manage) stay as they are. */
  ownBase: string;
}

const HREF = /(<a\b[^>]*?\bhref\s*=\s*)(["'])(.*?)\2/gis;

/**
 * Rewrites http(s) links of anchor tags to the click redirect and adds the open pixel. The target is
 * signed in its normalised spelling (trackableUrl), so the redirect is always a valid Location;
 * a link that cannot be made valid, mailto:, anchors and our own unsubscribe/manage links are left alone.
 */
export function addTracking(html: string, links: TrackingLinks): string {
  const rewritten = html.replace(HREF, (whole, start: string, quote: string, value: string) => {
    const url = decodeEntities(value.trim());
    if (!/^https?:\/\//i.test(url) || url.startsWith(links.ownBase)) return whole;
    const target = trackableUrl(url);
    return target === null ? whole : `${start}${quote}${escapeHtml(links.clickUrl(target))}${quote}`;
  });
  const pixel = `<img src="${escapeHtml(links.openUrl)}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0">`;
  const close = rewritten.search(/<\/body\s*>/i);
  return close === -1 ? rewritten + pixel : rewritten.slice(0, close) + pixel + rewritten.slice(close);
}
