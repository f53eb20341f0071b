import type { Verdict } from '../verdicts.js';
import { exchange } from './socket.js';

/** SpamAssassin's spamd (SPAMC/1.5 CHECK): PASS for ham, FAIL for spam, PROCESSING_FAILED when it cannot say. */
export async function spamVerdict(address: string, raw: Buffer, timeoutMs = 15_000): Promise<Verdict> {
  try {
    const head = Buffer.from(`CHECK SPAMC/1.5\r\nContent-length: ${raw.length}\r\n\r\n`);
    const answer = await exchange(address, [head, raw], timeoutMs);
    if (!/^SPAMD\/[\d.]+ 0 /.test(answer)) return 'PROCESSING_FAILED';
    const spam = /^Spam:\s*(True|False|Yes|No)\b/im.exec(answer)?.[1]?.toLowerCase();
    if (spam === undefined) return 'PROCESSING_FAILED';
    return spam === 'true' || spam === 'yes' ? 'FAIL' : 'PASS';
  } catch {
    return 'PROCESSING_FAILED';
  }
}
