// The `_smtp._tls` TXT record of TLS-RPT (RFC 8460 3): where a domain wants its reports.

/**
 * Destinations of one policy domain's report, at most: the record is the recipient domain's to
 * write, and each rua costs us a mail or a POST a day; a longer list would make us its amplifier.
 */
export const MAX_REPORT_DESTINATIONS = 2;

/**
 * The report URIs (mailto: and https:) of a TXT answer, the first MAX_REPORT_DESTINATIONS distinct
 * ones; empty without exactly one valid v=TLSRPTv1 record.
 */
export function reportUris(records: string[]): string[] {
  const rpt = records.filter((record) => /^v=TLSRPTv1\s*(;|$)/.test(record));
  if (rpt.length !== 1) return [];
  const rua = rpt[0]!
    .split(';')
    .map((field) => field.trim())
    .find((field) => field.startsWith('rua='));
  if (!rua) return [];
  const valid = rua
    .slice(4)
    .split(',')
    .map((uri) => uri.trim())
    .filter((uri) => {
      try {
        const url = new URL(uri);
        return (url.protocol === 'mailto:' && /^[^@\s]+@[^@\s]+$/.test(decodeURIComponent(url.pathname))) || url.protocol === 'https:';
      } catch {
        // an entry that is not a URI is no destination: skipped, the others still get reports
        return false;
      }
    });
  return [...new Set(valid)].slice(0, MAX_REPORT_DESTINATIONS);
}
