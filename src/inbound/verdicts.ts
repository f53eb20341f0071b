import type { AuthStatus } from 'mailauth';
import type { Dns } from '../dns/resolver.js';

export type Verdict = 'PASS' | 'FAIL' | 'GRAY' | 'PROCESSING_FAILED' | 'DISABLED';

export interface AuthVerdicts {
  spfVerdict: Verdict;
  dkimVerdict: Verdict;
  dmarcVerdict: Verdict;
}

/** mailauth's result words in the verdict vocabulary of email.received. */
export function verdictOf(result: AuthStatus['result'] | undefined): Verdict {
  switch (result) {
    case 'pass':
      return 'PASS';
    case 'fail':
    case 'softfail':
    case 'policy':
      return 'FAIL';
    case 'temperror':
    case 'temperr':
    case 'permerror':
      return 'PROCESSING_FAILED';
    default:
      return 'GRAY'; // none, neutral, skipped: nothing to say either way
  }
}

/** SPF, DKIM and DMARC of one received message, all lookups through the daemon's resolver. */
export async function checkAuth(raw: Buffer, opts: { ip: string; helo: string; sender: string; mta: string; dns: Dns }): Promise<AuthVerdicts> {
  try {
    // Loaded on the first received message, not at start: mailauth is the slowest module to load.
    const { authenticate } = await import('mailauth');
    const result = await authenticate(raw, {
      ip: opts.ip,
      helo: opts.helo,
      sender: opts.sender,
      mta: opts.mta,
      resolver: opts.dns.resolve,
      disableArc: true,
      disableBimi: true,
    });
    // mailauth calls a signature that is present but does not verify (body hash mismatch) "neutral": that is a failure.
    const dkim = result.dkim.results.map((r) => (r.status.result === 'neutral' ? 'FAIL' : verdictOf(r.status.result)));
    return {
      spfVerdict: result.spf ? verdictOf(result.spf.status.result) : 'GRAY',
      dkimVerdict: dkim.includes('PASS') ? 'PASS' : (dkim[0] ?? 'GRAY'),
      dmarcVerdict: result.dmarc ? verdictOf(result.dmarc.status.result) : 'GRAY',
    };
  } catch {
    return { spfVerdict: 'PROCESSING_FAILED', dkimVerdict: 'PROCESSING_FAILED', dmarcVerdict: 'PROCESSING_FAILED' };
  }
}
