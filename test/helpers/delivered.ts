import { simpleParser, type ParsedMail } from 'mailparser';
import * as assert from 'uvu/assert';
import type { MailEnv } from './mail-env.js';

export interface Delivered {
  parsed: ParsedMail;
  emailId: string;
  contactId: string;
}

/** Sends one email through `POST /v1/send` (asserting 200) and answers it as the sink received it, parsed, with its ids. */
export async function sendAndReceive(env: MailEnv, body: Record<string, unknown>, key = env.daemon.project.secretKey): Promise<Delivered> {
  const before = env.sink.messages.length;
  const r = await env.daemon.request('POST', '/v1/send', body, { key });
  assert.is(r.status, 200, JSON.stringify(r.body));
  const parsed = await simpleParser((await env.sink.waitFor(before + 1, 8000))[before]!.raw);
  return { parsed, emailId: r.body.data.emails[0].email, contactId: r.body.data.emails[0].contact.id };
}

/** A header as sent, unfolded (mailparser turns List-Unsubscribe into an object). */
export const rawHeader = (parsed: ParsedMail, key: string) =>
  parsed.headerLines.find((h) => h.key === key)?.line.replace(/\r?\n[ \t]+/g, ' ') ?? '';

/** The path of the one-click unsubscribe URL in List-Unsubscribe. */
export const unsubscribePath = (parsed: ParsedMail) => new URL(/<(http[^>]+\/u\/[^>]+)>/.exec(rawHeader(parsed, 'list-unsubscribe'))![1]!).pathname;
