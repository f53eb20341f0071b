// A recipient's mail client at work: it loads an email's open pixel and follows its first link.
import { simpleParser } from 'mailparser';
import type { TestDaemon } from './daemon.js';

/** Opens the email (its pixel) and clicks its first link, from the message as sent; throws when either is refused. */
export async function openAndClick(d: TestDaemon, emailId: string): Promise<void> {
  const raw = await fetch(`${d.url}/emails/${emailId}/raw`, { headers: { authorization: `Bearer ${d.project.secretKey}` } });
  if (raw.status !== 200) throw new Error(`GET /emails/${emailId}/raw: ${raw.status}`);
  const html = String((await simpleParser(Buffer.from(await raw.arrayBuffer()))).html);
  const pixel = /<img[^>]+src="([^"]+)"/.exec(html)?.[1];
  const link = /<a[^>]+href="([^"]+)"/.exec(html)?.[1];
  if (!pixel || !link) throw new Error(`no tracked pixel and link in ${html}`);
  const opened = await fetch(d.url + new URL(pixel.replace(/&amp;/g, '&')).pathname);
  const clicked = await fetch(d.url + new URL(link.replace(/&amp;/g, '&')).pathname, { redirect: 'manual' });
  if (opened.status !== 200 || clicked.status !== 302) throw new Error(`open answered ${opened.status}, click ${clicked.status}`);
}
