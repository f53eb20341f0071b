import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const PYTHON = '/usr/bin/python3';
const SCRIPT = join(fileURLToPath(import.meta.url), '..', '..', '..', '..', 'test', 'helpers', 'dkimpy-verify.py');

function missing(): string | null {
  if (!existsSync(PYTHON)) return `${PYTHON} is absent`;
  if (spawnSync(PYTHON, ['-c', 'import dkim, dns.resolver']).status !== 0) return 'dkimpy is not installed for /usr/bin/python3: apt-get install -y python3-dkim';
  return null;
}

let checked: { why: string | null } | null = null;

/** Why dkimpy cannot verify here (null when it can), found out once: tests that need it skip and say so. */
export function dkimpyMissing(): string | null {
  checked ??= { why: missing() };
  return checked.why;
}

export interface DkimpyResult {
  selector: string;
  algorithm: string;
  pass: boolean;
}

/**
 * Each DKIM signature of each message as dkimpy verifies it at `now` (ms since the epoch: the
 * daemon's clock), keys read from the DNS server at `dnsAddress` (host:port). One Python start for
 * all of them: it takes seconds on a loaded machine.
 */
export async function dkimpyVerify(messages: Buffer[], dnsAddress: string, now: number): Promise<DkimpyResult[][]> {
  const run = promisify(execFile);
  const child = run(PYTHON, [SCRIPT, dnsAddress, String(now / 1000)], { timeout: 60_000 });
  child.child.stdin!.end(JSON.stringify(messages.map((m) => m.toString('base64'))));
  const { stdout } = await child;
  return JSON.parse(stdout) as DkimpyResult[][];
}
