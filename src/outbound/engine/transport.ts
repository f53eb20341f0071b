import type { SMTPConnectionAuth, SMTPConnectionOptions } from 'nodemailer/lib/smtp-connection';
import { parseConnectionUrl } from 'nodemailer/lib/shared';
import type { SessionCheck } from './tls.js';

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
  /** Names the server's sessions; equal keys share them. */
  key: string;
  /** How results name the server, e.g. `mx.example.com[192.0.2.1]`. */
  label: string;
  options: SMTPConnectionOptions;
  /** Credentials to log in with (the relay's); null for MX hosts. */
  auth: SMTPConnectionAuth | null;
  /** Messages per session at this server when its provider sets it (src/outbound/shaping/providers.ts); else the delivery's. */
  messagesPerSession?: number;
  /** What the session must satisfy before it carries mail (the recipient domain's TLS policy); null: nothing. */
  check: SessionCheck | null;
}

function common(ehloName: string, timeouts: SmtpTimeouts): SMTPConnectionOptions {
  return {
    name: ehloName,
    connectionTimeout: timeouts.connectMs,
    greetingTimeout: timeouts.greetingMs,
    socketTimeout: timeouts.socketMs,
    logger: false,
  };
}

/**
 * An MX host at one address. STARTTLS is used when offered, without requiring the certificate:
 * MX certificates are rarely valid for their names (RFC 7435 opportunistic security), and refusing
 * them would only push the mail back to plaintext. A domain's TLS policy (MTA-STS, DANE, an
 * override) judges the session through `check` once it is made, before any mail goes over it.
 */
export function mxTarget(host: { name: string; address: string }, port: number, ehloName: string, timeouts: SmtpTimeouts, check: SessionCheck | null = null): SmtpTarget {
  return {
    key: `${host.name}|${host.address}:${port}${check ? `|${check.key}` : ''}`,
    label: `${host.name}[${host.address}]`,
    options: {
      ...common(ehloName, timeouts),
      host: host.address,
      port,
      secure: false,
      ignoreTLS: false,
      opportunisticTLS: true,
      tls: { rejectUnauthorized: false, servername: host.name, ...(check?.secureContext ? { secureContext: check.secureContext } : {}) },
    },
    auth: null,
    check,
  };
}

/**
 * The smarthost of relay mode, `smtp://user:pass@host:port` or `smtps://...`. Its
 * certificate is checked because the credentials travel over that session; a relay with a
 * private CA can take nodemailer's `?tls.rejectUnauthorized=false` in the URL.
 */
export function relayTarget(url: string, ehloName: string, timeouts: SmtpTimeouts): SmtpTarget {
  const { auth, host, port, secure, tls } = parseConnectionUrl(url);
  return {
    key: `relay|${url}`,
    label: new URL(url).host,
    options: { ...common(ehloName, timeouts), host, port, secure, ...(tls ? { tls } : {}) },
    auth: auth?.user ? { user: auth.user, pass: auth.pass } : null,
    check: null,
  };
}
