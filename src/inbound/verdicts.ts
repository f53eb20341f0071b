import type { AuthStatus } from 'mailauth';

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
