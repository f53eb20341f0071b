import { runDoctor } from '../doctor/run.js';
import { print, type Command } from './command.js';

export const DOCTOR: Command = {
  words: ['doctor'],
  args: [],
  summary: 'check what a new install gets wrong, and say how to fix each',
  details:
    'Checks outbound SMTP (port 25 to a real MX, or the relay in relay mode), the reverse DNS of hostname, the DNS records of every sender domain and their DMARC alignment and policy, that publicUrl answers, and the clock against NTP. Exits 1 when a check fails; a warning (DMARC p=none) passes with its fix.',
  options: {
    'probe-domain': { type: 'string', value: 'DOMAIN', default: 'gmail.com', help: 'a domain whose mail server is tried on delivery.port' },
    'ntp-server': { type: 'string', value: 'HOST[:PORT]', default: 'pool.ntp.org', help: 'the NTP server to compare the clock with' },
  },
  run: async (input) => {
    const checks = await runDoctor(input.config, { probeDomain: String(input.options['probe-domain']), ntpServer: String(input.options['ntp-server']) });
    const lines = checks.map((c) => `${c.ok ? (c.warning ? 'warn' : 'ok  ') : 'FAIL'}  ${c.name}: ${c.detail}${c.fix ? `\n      fix: ${c.fix}` : ''}`);
    print(input, { checks }, lines.join('\n'));
    return checks.every((c) => c.ok) ? 0 : 1;
  },
};
