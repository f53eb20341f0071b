// Limits on the connections of one SMTP listener that smtp-server does not keep itself: open
// connections per client, and a deadline for sessions that must authenticate.
import type { SMTPServer, SMTPServerSession } from 'smtp-server';
import { clientKey } from './client-key.js';

/** An smtp-server error with its reply code. */
const refusal = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

/**
 * Open connections per client (address, or IPv6 /64) on one listener: past `max`, the next is
 * refused with 421 at once. smtp-server calls onClose for refused sessions too, so only sessions
 * admitted here are released: a refused one must not free the place of an open one.
 */
export class PerClientConnections {
  private readonly open = new Map<string, number>();
  private readonly admitted = new WeakMap<SMTPServerSession, string>();

  constructor(private readonly max: number) {}

  /** smtp-server's onConnect. */
  admit(session: SMTPServerSession, callback: (err?: Error | null) => void): void {
    const key = clientKey(session.remoteAddress);
    const count = this.open.get(key) ?? 0;
    if (count >= this.max) return callback(refusal(421, '4.7.0 Too many connections from your address, try again later'));
    this.open.set(key, count + 1);
    this.admitted.set(session, key);
    callback();
  }

  /** smtp-server's onClose. */
  release(session: SMTPServerSession): void {
    const key = this.admitted.get(session);
    if (key === undefined) return;
    this.admitted.delete(session);
    const count = (this.open.get(key) ?? 1) - 1;
    if (count <= 0) this.open.delete(key);
    else this.open.set(key, count);
  }
}

/** What smtp-server's connection objects (`server.connections`) offer that this file uses. */
interface Connection {
  session: SMTPServerSession;
  send(code: number, text: string): void;
}

/**
 * Sessions that have not authenticated `ms` after connecting are ended with 421. The idle timeout
 * alone does not bound them: a client that sends a byte now and then keeps a connection (and its
 * place among the listener's clients) as long as it likes without ever logging in.
 */
export class LoginDeadline {
  private readonly timers = new WeakMap<SMTPServerSession, NodeJS.Timeout>();

  constructor(
    private readonly server: () => SMTPServer,
    private readonly ms: number,
  ) {}

  /** From onConnect. */
  start(session: SMTPServerSession): void {
    const timer = setTimeout(() => this.expire(session), this.ms);
    timer.unref();
    this.timers.set(session, timer);
  }

  /** From a successful AUTH, and from onClose. */
  stop(session: SMTPServerSession): void {
    clearTimeout(this.timers.get(session));
    this.timers.delete(session);
  }

  private expire(session: SMTPServerSession): void {
    this.timers.delete(session);
    for (const connection of this.server().connections as Set<Connection>) {
      if (connection.session === session) connection.send(421, `4.7.0 No login within ${Math.round(this.ms / 1000)} seconds, closing`);
    }
  }
}
