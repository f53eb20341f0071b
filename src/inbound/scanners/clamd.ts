import type { Verdict } from '../verdicts.js';
import { exchange } from './socket.js';

const CHUNK = 64 * 1024;

/** The INSTREAM framing: 4-byte big-endian lengths, a zero length at the end. */
function frames(raw: Buffer): Buffer[] {
  const parts: Buffer[] = [Buffer.from('zINSTREAM\0')];
  for (let at = 0; at < raw.length; at += CHUNK) {
    const chunk = raw.subarray(at, at + CHUNK);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(chunk.length);
    parts.push(length, chunk);
  }
  parts.push(Buffer.alloc(4));
  return parts;
}

/** ClamAV's clamd (INSTREAM): PASS when clean, FAIL when a signature matched, PROCESSING_FAILED otherwise. */
export async function virusVerdict(address: string, raw: Buffer, timeoutMs = 30_000): Promise<Verdict> {
  try {
    const answer = (await exchange(address, frames(raw), timeoutMs)).replace(/\0/g, '').trim();
    if (/\bOK$/.test(answer)) return 'PASS';
    if (/\bFOUND$/.test(answer)) return 'FAIL';
    return 'PROCESSING_FAILED';
  } catch {
    // clamd unreachable, slow or garbled: the verdict that says the scan itself failed
    return 'PROCESSING_FAILED';
  }
}
