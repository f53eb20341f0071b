// A TLS-RPT report as a mail (RFC 8460 5.3): multipart/report; report-type="tlsrpt", the gzipped JSON as
// application/tlsrpt+gzip, the TLS-Report-Domain and TLS-Report-Submitter headers and the RFC's subject.
import { randomUUID } from 'node:crypto';

export interface ReportMail {
  from: string;
  to: string;
  submitter: string;
  policyDomain: string;
  reportId: string;
  fileName: string;
  gzipped: Buffer;
  date: Date;
}

const base64Lines = (data: Buffer) => data.toString('base64').replace(/.{1,76}/g, '$&\r\n');

export function reportMessage(mail: ReportMail): Buffer {
  const boundary = `tlsrpt-${randomUUID()}`;
  const lines = [
    `From: ${mail.from}`,
    `To: ${mail.to}`,
    `Subject: Report Domain: ${mail.policyDomain} Submitter: ${mail.submitter} Report-ID: <${mail.reportId}>`,
    `Date: ${mail.date.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${mail.reportId}>`,
    `TLS-Report-Domain: ${mail.policyDomain}`,
    `TLS-Report-Submitter: ${mail.submitter}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type="tlsrpt"; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=us-ascii',
    '',
    `This is an aggregate TLS report (RFC 8460) from ${mail.submitter} for ${mail.policyDomain}.`,
    '',
    `--${boundary}`,
    `Content-Type: application/tlsrpt+gzip; name="${mail.fileName}"`,
    'Content-Transfer-Encoding: base64',
    `Content-Disposition: attachment; filename="${mail.fileName}"`,
    '',
    base64Lines(mail.gzipped) + `--${boundary}--`,
    '',
  ];
  return Buffer.from(lines.join('\r\n'), 'ascii');
}
