import type { SMTPPoolOptions } from 'nodemailer';
import { attemptFromError, type Attempt } from './attempt.js';
import type { SmtpPools, WireMessage } from './pools.js';

export interface SmtpTimeouts {
  /** TCP connect. */
  connectMs: number;
  /** The server's 220 greeting. */
  greetingMs: number;
  /** Inactivity during a session. */
  socketMs: number;
}

/** One SMTP server to hand mail to. */
export interface SmtpTarget {
  /** Names the connection pool; equal keys share connections. */
  key: string;
  /** How results name the server, e.g. `mx.example.com[192.0.2.1]`. */
  label: string;
  options: SMTPPoolOptions;
}

/** Kept small: receiving servers throttle clients that open many sessions. */
const CONNECTIONS_PER_HOST = 3;
const MESSAGES_PER_CONNECTION = 100;

function common(ehloName: string, timeouts: SmtpTimeouts): SMTPPoolOptions {
  return {
    name: ehloName,
    connectionTimeout: timeouts.connectMs,
    greetingTimeout: timeouts.greetingMs,
    socketTimeout: timeouts.socketMs,
    maxConnections: CONNECTIONS_PER_HOST,
    maxMessages: MESSAGES_PER_CONNECTION,
    logger: false,
  };
}

/**
 * An MX host at one address. STARTTLS is used when offered, without checking the
 * certificate: MX certificates are rarely valid for their names (RFC 7435 opportunistic
 * security), and refusing them would only push the mail back to plaintext.
 */
export function mxTarget(host: { name: string; address: string }, port: number, ehloName: string, timeouts: SmtpTimeouts): SmtpTarget {
  return {
    key: `${host.name}|${host.address}:${port}`,
    label: `${host.name}[${host.address}]`,
    options: {
      ...common(ehloName, timeouts),
      host: host.address,
      port,
      secure: false,
      ignoreTLS: false,
      opportunisticTLS: true,
      tls: { rejectUnauthorized: false, servername: host.name },
    },
  };
}

/**
 * The smarthost of relay mode, `smtp://user:pass@host:port` or `smtps://...`. Its
 * certificate is checked because the credentials travel over that session; a relay with a
 * private CA can take nodemailer's `?tls.rejectUnauthorized=false` in the URL.
 */
export function relayTarget(url: string, ehloName: string, timeouts: SmtpTimeouts): SmtpTarget {
  const { host } = new URL(url);
  return { key: `relay|${url}`, label: host, options: { ...common(ehloName, timeouts), url } };
}

/** Hands one message to one server; never throws. */
export async function sendVia(pools: SmtpPools, target: SmtpTarget, message: WireMessage): Promise<Attempt> {
  try {
    const info = await pools.send(target.key, target.options, message);
    return { ok: true, response: info.response };
  } catch (err) {
    return attemptFromError(err);
  }
}
