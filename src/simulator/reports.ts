// The reports the simulator sends back, as a receiving system would write them: a delivery status
// notification (RFC 3464) for a hard bounce, an abuse report (ARF, RFC 5965) for a complaint.
import { randomUUID } from 'node:crypto';
import { SIMULATOR_DOMAIN } from '../addresses/simulator.js';

/** At most this much of the original's header section is quoted back. */
const QUOTED_HEADERS_MAX = 64 * 1024;

/** The header section of the message as sent: the signature kept apart in front, then the stored message's own. */
export function headerSection(head: Buffer | null, raw: Buffer): string {
  const end = raw.indexOf('\r\n\r\n');
  const own = raw.subarray(0, Math.min(end === -1 ? raw.length : end + 2, QUOTED_HEADERS_MAX)).toString('latin1');
  return (head ? head.toString('latin1') : '') + own;
}

export interface Report {
  /** The envelope and header recipient: the VERP return path of the reported email. */
  returnPath: string;
  /** The simulator address the email was sent to. */
  recipient: string;
  /** The header section of the email as sent. */
  headers: string;
  at: Date;
}

function multipartReport(reportType: string, from: string, subject: string, report: Report, parts: { type: string; body: string }[]): Buffer {
  const boundary = `simulator-${randomUUID()}`;
  const head = [
    `From: ${from}`,
    `To: <${report.returnPath}>`,
    `Subject: ${subject}`,
    `Date: ${report.at.toUTCString()}`,
    `Message-ID: <${randomUUID()}@${SIMULATOR_DOMAIN}>`,
    'Auto-Submitted: auto-replied',
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=${reportType}; boundary="${boundary}"`,
  ];
  const body = parts.map((p) => `--${boundary}\r\nContent-Type: ${p.type}\r\n\r\n${p.body.replace(/\r?\n/g, '\r\n')}\r\n`).join('');
  return Buffer.from(`${head.join('\r\n')}\r\n\r\n${body}--${boundary}--\r\n`, 'latin1');
}

/** A hard bounce: the mailbox does not exist (5.1.1). */
export function bounceReport(report: Report): Buffer {
  const diagnostic = '550 5.1.1 Simulated hard bounce: the mailbox does not exist';
  return multipartReport('delivery-status', `Mail Delivery System <mailer-daemon@${SIMULATOR_DOMAIN}>`, 'Undelivered Mail Returned to Sender', report, [
    { type: 'text/plain; charset=us-ascii', body: `Postmill's simulator plays a hard bounce for <${report.recipient}>.\n\n${diagnostic}\n` },
    {
      type: 'message/delivery-status',
      body: [
        `Reporting-MTA: dns; ${SIMULATOR_DOMAIN}`,
        `Arrival-Date: ${report.at.toUTCString()}`,
        '',
        `Final-Recipient: rfc822; ${report.recipient}`,
        'Action: failed',
        'Status: 5.1.1',
        `Remote-MTA: dns; ${SIMULATOR_DOMAIN}`,
        `Diagnostic-Code: smtp; ${diagnostic}`,
      ].join('\n'),
    },
    { type: 'text/rfc822-headers', body: report.headers.replace(/\r\n$/, '') },
  ]);
}

/** A recipient marked the email as spam. */
export function complaintReport(report: Report): Buffer {
  return multipartReport('feedback-report', `Feedback Loop <fbl@${SIMULATOR_DOMAIN}>`, 'Abuse report', report, [
    { type: 'text/plain; charset=us-ascii', body: `Postmill's simulator plays a spam complaint by <${report.recipient}>.\n` },
    {
      type: 'message/feedback-report',
      body: [
        'Feedback-Type: abuse',
        'User-Agent: postmill-simulator/1',
        'Version: 1',
        `Original-Mail-From: <${report.returnPath}>`,
        `Original-Rcpt-To: <${report.recipient}>`,
        `Arrival-Date: ${report.at.toUTCString()}`,
        `Reported-Domain: ${SIMULATOR_DOMAIN}`,
      ].join('\n'),
    },
    { type: 'text/rfc822-headers', body: report.headers.replace(/\r\n$/, '') },
  ]);
}
