import type { Config } from '../config.js';
import { failed, passed, reasonOf, type Check } from './check.js';

const NAME = 'public-url';
const TIMEOUT_MS = 8000;
const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i;

/** `publicUrl` answers /health from here: the tracking, unsubscribe and manage links in every mail point there. */
export async function checkPublicUrl(config: Config): Promise<Check> {
  if (!config.publicUrl) {
    return failed(
      NAME,
      'publicUrl is not set: links in mail would name the listener address',
      'Set publicUrl to the public HTTPS address of Postmill (behind a reverse proxy), e.g. https://mail.example.com',
    );
  }
  const url = new URL(config.publicUrl);
  const health = new URL('health', config.publicUrl.endsWith('/') ? config.publicUrl : `${config.publicUrl}/`);
  try {
    const res = await fetch(health, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'manual' });
    const body = (await res.text()).slice(0, 200);
    if (res.status !== 200 || !body.includes('"ok"')) {
      return failed(NAME, `${health} answers ${res.status} ${body}`, 'Point the reverse proxy for publicUrl at http.host:http.port of Postmill');
    }
  } catch (err) {
    return failed(
      NAME,
      `${health} cannot be reached (${reasonOf((err as { cause?: unknown }).cause ?? err)})`,
      'Start the daemon, and check the DNS name, the firewall (443) and the reverse proxy of publicUrl',
    );
  }
  if (url.protocol === 'https:') return passed(NAME, `${health} answers`);
  if (LOOPBACK.test(url.hostname))
    return passed(NAME, `${health} answers (a loopback address: fine for trying Postmill; mail to others needs a public https publicUrl)`);
  return failed(
    NAME,
    `${health} answers, but over plain http`,
    'Serve publicUrl over HTTPS (a reverse proxy with a certificate): one-click unsubscribe (RFC 8058) needs an https URL',
  );
}
