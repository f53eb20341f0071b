// A day's TLS-RPT aggregate report (RFC 8460 4) from the sessions counted for one policy domain, and
// the file name it travels under (5.1).
import type { CountRow } from './store.js';

export interface ReportInput {
  /** The sending organization: our host name. */
  organization: string;
  contact: string;
  reportId: string;
  /** The UTC day (YYYY-MM-DD) the report covers. */
  day: string;
  policyDomain: string;
  rows: CountRow[];
}

interface FailureDetail {
  'result-type': string;
  'receiving-mx-hostname'?: string;
  'receiving-ip'?: string;
  'failed-session-count': number;
  /** 4.4: the TLS error code or message as text (`additional-information` is for a URI, which we have none of). */
  'failure-reason-code'?: string;
}

export interface TlsReport {
  'organization-name': string;
  'date-range': { 'start-datetime': string; 'end-datetime': string };
  'contact-info': string;
  'report-id': string;
  policies: {
    policy: { 'policy-type': string; 'policy-string'?: string[]; 'policy-domain': string; 'mx-host'?: string[] };
    summary: { 'total-successful-session-count': number; 'total-failure-session-count': number };
    'failure-details'?: FailureDetail[];
  }[];
}

export const dayRange = (day: string) => ({ start: Date.parse(`${day}T00:00:00Z`), end: Date.parse(`${day}T23:59:59Z`) });

/** The `mx:` patterns of an MTA-STS policy's lines. */
const mxPatterns = (lines: string[]) => lines.flatMap((line) => (/^mx\s*:/.test(line) ? [line.slice(line.indexOf(':') + 1).trim()] : []));

export function buildReport(input: ReportInput): TlsReport {
  const groups = new Map<string, CountRow[]>();
  for (const row of input.rows) {
    const key = JSON.stringify([row.policyType, row.policyString]);
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const { start, end } = dayRange(input.day);
  return {
    'organization-name': input.organization,
    'date-range': { 'start-datetime': new Date(start).toISOString().replace('.000', ''), 'end-datetime': new Date(end).toISOString().replace('.000', '') },
    'contact-info': input.contact,
    'report-id': input.reportId,
    policies: [...groups.values()].map((rows) => {
      const { policyType, policyString } = rows[0]!;
      const failures = rows.filter((row) => row.resultType !== 'success');
      const mx = policyType === 'sts' ? mxPatterns(policyString) : [];
      return {
        policy: {
          'policy-type': policyType,
          ...(policyString.length > 0 ? { 'policy-string': policyString } : {}),
          'policy-domain': input.policyDomain,
          ...(mx.length > 0 ? { 'mx-host': mx } : {}),
        },
        summary: {
          'total-successful-session-count': rows.filter((row) => row.resultType === 'success').reduce((sum, row) => sum + row.sessions, 0),
          'total-failure-session-count': failures.reduce((sum, row) => sum + row.sessions, 0),
        },
        ...(failures.length > 0
          ? {
              'failure-details': failures.map((row) => ({
                'result-type': row.resultType,
                ...(row.mxHost ? { 'receiving-mx-hostname': row.mxHost } : {}),
                ...(row.receivingIp ? { 'receiving-ip': row.receivingIp } : {}),
                'failed-session-count': row.sessions,
                ...(row.detail ? { 'failure-reason-code': row.detail } : {}),
              })),
            }
          : {}),
      };
    }),
  };
}

/** RFC 8460 5.1: `sender!policy-domain!begin-timestamp!end-timestamp!unique-id.json.gz`, timestamps in seconds. */
export function reportFileName(sender: string, day: string, policyDomain: string, uniqueId: string): string {
  const { start, end } = dayRange(day);
  return `${sender}!${policyDomain}!${start / 1000}!${Math.floor(end / 1000)}!${uniqueId}.json.gz`;
}
