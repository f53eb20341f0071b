import nodemailer from 'nodemailer';

/**
 * Sends one raw message over SMTP to the daemon's listener on `port` and answers the reply code of
 * the transaction: 250, or the code of the refusal (RCPT or DATA).
 */
export async function smtpCode(port: number, envelope: { from: string; to: string[] }, raw: string | Buffer): Promise<number> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, name: 'client.test' });
  try {
    return Number((await transport.sendMail({ envelope, raw })).response.slice(0, 3));
  } catch (err) {
    return (err as { responseCode?: number }).responseCode ?? 0;
  } finally {
    transport.close();
  }
}
