// A recipient's mail client at work: it loads an email's open pixel and follows one of its links.
import { simpleParser } from 'mailparser';
import type { TestDaemon } from './daemon.js';

/**
 * Opens the email (its pixel) and clicks its link number `link` (the first by default; none when
 * null), from the message as sent; throws when either is refused.
 */
export async function openAndClick(d: TestDaemon, emailId: string, link: number | null = 0): Promise<void> {
  const raw = await fetch(`${d.url}/emails/${emailId}/raw`, { headers: { authorization: `Bearer ${d.project.secretKey}` } });
  if (raw.status !== 200) throw new Error(`GET /emails/${emailId}/raw: ${raw.status}`);
  const html = String((await simpleParser(Buffer.from(await raw.arrayBuffer()))).html);
  const pixel = /<img[^>]+src="([^"]+)"/.exec(html)?.[1];
  const href = link === null ? null : [...html.matchAll(/<a[^>]+href="([^"]+)"/g)][link]?.[1];
  if (!pixel || (link !== null && !href)) throw new Error(`no tracked pixel and link ${link} in ${html}`);
  const opened = await fetch(d.url + new URL(pixel.replace(/&amp;/g, '&')).pathname);
  if (opened.status !== 200) throw new Error(`open answered ${opened.status}`);
  if (!href) return;
  const clicked = await fetch(d.url + new URL(href.replace(/&amp;/g, '&')).pathname, { redirect: 'manual' });
  if (clicked.status !== 302) throw new Error(`click answered ${clicked.status}`);
}
