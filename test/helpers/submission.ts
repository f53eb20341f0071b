// A submission client for tests: STARTTLS (the daemon's self-signed certificate), then AUTH as postmill.
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { TestDaemon } from './daemon.js';

const client = (daemon: TestDaemon, pass: string, user: string) =>
  nodemailer.createTransport({
    host: '127.0.0.1',
    port: daemon.submissionPort!,
    secure: false,
    requireTLS: true,
    tls: { rejectUnauthorized: false },
    auth: { user, pass },
  });

/** Submits one message; answers the server's 250 reply. */
export async function submit(daemon: TestDaemon, message: SendMailOptions, pass = daemon.project.secretKey): Promise<string> {
  const transport = client(daemon, pass, 'postmill');
  try {
    return (await transport.sendMail(message)).response;
  } finally {
    transport.close();
  }
}

/** Submits one message that must be refused; answers the refusal's code and text. */
export async function refusal(daemon: TestDaemon, message: SendMailOptions, pass = daemon.project.secretKey, user = 'postmill'): Promise<{ responseCode?: number; response?: string }> {
  const transport = client(daemon, pass, user);
  try {
    await transport.sendMail(message);
  } catch (err) {
    return err as { responseCode?: number; response?: string };
  } finally {
    transport.close();
  }
  throw new Error('expected a refusal');
}
