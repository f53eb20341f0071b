import type { Verdict } from '../verdicts.js';
import { exchange } from './socket.js';

/** What SpamAssassin made of a message: its verdict, its score against the threshold, and the rules that fired. */
export interface SpamReport {
  spam: boolean;
  score: number;
  threshold: number;
  rules: string[];
}

/** Asks spamd (SPAMC/1.5 SYMBOLS); null when it cannot say (unreachable, an error, an answer it does not understand). */
export async function spamReport(address: string, raw: Buffer, timeoutMs = 15_000): Promise<SpamReport | null> {
  try {
    const head = Buffer.from(`SYMBOLS SPAMC/1.5\r\nContent-length: ${raw.length}\r\n\r\n`);
    const answer = await exchange(address, [head, raw], timeoutMs);
    if (!/^SPAMD\/[\d.]+ 0 /.test(answer)) return null;
    const verdict = /^Spam:\s*(True|False|Yes|No)\s*;\s*(-?[\d.]+)\s*\/\s*(-?[\d.]+)/im.exec(answer);
    if (!verdict) return null;
    const body = answer.slice(answer.indexOf('\r\n\r\n') + 4).trim();
    return {
      spam: /^(true|yes)$/i.test(verdict[1]!),
      score: Number(verdict[2]),
      threshold: Number(verdict[3]),
      rules: body === '' ? [] : body.split(',').map((r) => r.trim()).filter(Boolean),
    };
  } catch {
    // spamd unreachable, slow or garbled: null is the answer that says spamd could not say
    return null;
  }
}

/** PASS for ham, FAIL for spam, PROCESSING_FAILED when spamd cannot say. */
export async function spamVerdict(address: string, raw: Buffer, timeoutMs = 15_000): Promise<Verdict> {
  const report = await spamReport(address, raw, timeoutMs);
  return report === null ? 'PROCESSING_FAILED' : report.spam ? 'FAIL' : 'PASS';
}
