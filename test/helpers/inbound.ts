import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import nodemailer from 'nodemailer';

const fixtures = join(fileURLToPath(import.meta.url), '..', '..', '..', '..', 'test', 'fixtures', 'inbound');
const FIXTURE_EMAIL_ID = '786e17de-f7ae-407a-bfc8-7db485549fe9';

/** Sends one raw message over SMTP to a daemon's listener; answers the server's reply or throws its error. */
export async function smtpSend(port: number, from: string, to: string[], raw: string | Buffer): Promise<string> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, name: 'client.test' });
  try {
    const info = await transport.sendMail({ envelope: { from, to }, raw });
    return info.response;
  } finally {
    transport.close();
  }
}

/** An .eml fixture about `emailId`, sent from `senderDomain`. */
export const inboundFixture = (name: string, emailId: string, senderDomain: string) =>
  readFileSync(join(fixtures, name), 'utf8').replaceAll(FIXTURE_EMAIL_ID, emailId).replaceAll('shop.example', senderDomain);
