import { Readable } from 'node:stream';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import type { NodemailerError } from 'nodemailer/lib/errors';
import { attemptFromError, type Attempt } from './attempt.js';
import { withFastData } from '../../nodemailer-internals.js';
import type { SessionCheck } from './tls.js';
import type { SmtpTarget } from './transport.js';
import type { TLSSocket } from 'node:tls';

/** A message as it goes on the wire: envelope plus the finished (signed) bytes. */
export interface WireMessage {
  envelope: { from: string; to: string[] };
  /** Written before `raw` (a DKIM-Signature header kept apart from a large message). */
  head: Buffer | null;
  raw: Buffer;
}

/**
 * The delivery's own SMTP sessions (nodemailer's SMTPConnection: PIPELINING, STARTTLS, AUTH),
 * kept open per server and reused, so consecutive messages to one host share a session.
 */
export interface SmtpConnections {
  /** Hands one message to one server; never throws. */
  send(target: SmtpTarget, message: WireMessage): Promise<Attempt>;
  /** Closes idle sessions at once and busy ones after their message; later sends fail. */
  close(): void;
}

export interface SessionLimits {
  /** Sessions open at once per server. */
  perHost: number;
  /** Messages per session before it is closed and a fresh one opened. */
  messagesPerSession: number;
  /** An idle session is closed after this long. */
  idleMs: number;
}

interface Session {
  connection: SMTPConnection;
  sent: number;
  /** The server or the network ended it; it takes no more messages. */
  ended: boolean;
  idleTimer: NodeJS.Timeout | null;
}

interface Host {
  /** Sessions open or opening. */
  open: number;
  idle: Session[];
  /** Sends waiting for a session, first come first served: each gets one, or why none could be opened. */
  waiting: ((session: Session | Error) => void)[];
}

/** Errors that end the transaction but leave the session usable (after RSET): the server refused this message. */
const REFUSED = new Set(['EENVELOPE', 'EMESSAGE']);

const asError = (err: unknown): NodemailerError => err as NodemailerError;
const closedError = () => new Error('outbound SMTP connections are closed');


/**
 * SMTPConnection pipes each message into its socket as two writes, the (dot-stuffed) message and
 * then the final `.` line: two system calls, on loopback each a trip through the receiver's TCP
 * stack. Corking the socket from the moment the message is piped in until the next turn sends
 * them as one. `_socket` (the session's socket, after STARTTLS the TLS one) is public API in
 * nodemailer's typings; 'pipe' is the standard Writable event.
 */
/** The session's TLS protocol (STARTTLS, or a TLS relay), or null when it is plain. */
function tlsOf(connection: SMTPConnection): string | null {
  if (!connection.secure) return null;
  const socket = connection._socket as TLSSocket | undefined;
  return socket?.getProtocol?.() ?? 'TLS';
}

/** The TLS policy's verdict on a session just made; a check that fails (its store closed at shutdown) refuses it. */
function judged(check: SessionCheck, connection: SMTPConnection, address: string): string | null {
  try {
    return check.check(connection.secure ? (connection._socket as TLSSocket) : null, address);
  } catch (err) {
    return `the TLS policy could not be checked: ${err instanceof Error ? err.message : String(err)}`;
  }
}

function coalesceMessageWrites(connection: SMTPConnection): void {
  const socket = connection._socket;
  if (!socket) return;
  socket.on('pipe', () => {
    socket.cork();
    setImmediate(() => socket.uncork());
  });
}

/**
 * A large message goes to the session in slices, so that its dot-stuffed copy is made (and
 * written, with backpressure) a slice at a time instead of a second whole copy in memory.
 */
const SLICE_BYTES = 64 * 1024;

function inSlices({ head, raw }: WireMessage): Buffer | Readable {
  if (raw.length <= 4 * SLICE_BYTES) return head ? Buffer.concat([head, raw]) : raw;
  let offset = 0;
  return new Readable({
    read() {
      if (offset === 0 && head) this.push(head);
      this.push(offset < raw.length ? raw.subarray(offset, (offset += SLICE_BYTES)) : null);
    },
  });
}

export function createSmtpConnections(limits: SessionLimits): SmtpConnections {
  const hosts = new Map<string, Host>();
  let closed = false;

  function hostOf(key: string): Host {
    let host = hosts.get(key);
    if (!host) hosts.set(key, (host = { open: 0, idle: [], waiting: [] }));
    return host;
  }

  function end(session: Session, quit: boolean): void {
    if (session.idleTimer) clearTimeout(session.idleTimer);
    session.ended = true;
    if (quit && !session.connection.destroyed) session.connection.quit();
    else session.connection.close();
  }

  /** Opens a session: connect, EHLO, STARTTLS when offered, AUTH where the target has credentials. */
  function connect(target: SmtpTarget): Promise<Session> {
    const connection = withFastData(new SMTPConnection(target.options));
    const session: Session = { connection, sent: 0, ended: false, idleTimer: null };
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (err?: NodemailerError) => {
        if (settled) return;
        settled = true;
        if (err) {
          session.ended = true;
          connection.close();
          reject(err);
        } else resolve(session);
      };
      // Errors of a session in use reach its send callback too; this keeps them from being unhandled.
      connection.on('error', (err: NodemailerError) => {
        session.ended = true;
        settle(err);
      });
      connection.once('end', () => {
        session.ended = true;
        settle(Object.assign(new Error('Connection closed before the session was ready'), { code: 'ECONNECTION' }) as NodemailerError);
      });
      connection.connect((err) => {
        if (!err) coalesceMessageWrites(connection);
        const refused = !err && target.check ? judged(target.check, connection, target.options.host ?? '') : null;
        if (refused) return settle(Object.assign(new Error(refused), { code: 'ETLSPOLICY' }) as NodemailerError);
        // as nodemailer's own transports do: credentials only go to a server that offers AUTH
        if (err || !target.auth || !connection.allowsAuth) return settle(err);
        connection.login(target.auth, (loginErr) => settle(loginErr ?? undefined));
      });
    });
  }

  /** Drops the entry of a host without sessions or sends: every MX host ever seen does not stay in memory. */
  function forgetIfUnused(target: SmtpTarget, host: Host): void {
    if (host.open === 0 && host.waiting.length === 0 && hosts.get(target.key) === host) hosts.delete(target.key);
  }

  /** A session for `target`: an idle one, a new one while under the limit, or the next one released. */
  async function acquire(target: SmtpTarget, host: Host): Promise<Session> {
    while (host.idle.length > 0) {
      const session = host.idle.pop()!;
      if (session.idleTimer) clearTimeout(session.idleTimer);
      session.idleTimer = null;
      if (!session.ended) return session;
      host.open--;
    }
    if (host.open < limits.perHost) {
      host.open++;
      try {
        return await connect(target);
      } catch (err) {
        host.open--;
        handOn(target, host);
        throw err;
      }
    }
    return new Promise((resolve, reject) => host.waiting.push((session) => (session instanceof Error ? reject(session) : resolve(session))));
  }

  /** A place became free (a session closed or failed to open): the next waiting send may open one. */
  function handOn(target: SmtpTarget, host: Host): void {
    const next = host.waiting.shift();
    if (!next) return forgetIfUnused(target, host);
    if (closed) return next(closedError());
    host.open++;
    connect(target).then(next, (err: Error) => {
      host.open--;
      next(err);
      handOn(target, host);
    });
  }

  function release(target: SmtpTarget, host: Host, session: Session): void {
    if (closed || session.ended || session.sent >= (target.messagesPerSession ?? limits.messagesPerSession)) {
      if (!session.ended) end(session, true);
      host.open--;
      return handOn(target, host);
    }
    const next = host.waiting.shift();
    if (next) return next(session);
    host.idle.push(session);
    session.idleTimer = setTimeout(() => {
      host.idle = host.idle.filter((s) => s !== session);
      host.open--;
      end(session, true);
      forgetIfUnused(target, host);
    }, limits.idleMs);
    session.idleTimer.unref();
  }

  function transmit(session: Session, message: WireMessage): Promise<{ ok: true; response: string } | { ok: false; error: NodemailerError }> {
    return new Promise((resolve) => {
      session.connection.send(message.envelope, inSlices(message), (err, info) => {
        session.sent++;
        resolve(err ? { ok: false, error: asError(err) } : { ok: true, response: info?.response ?? '' });
      });
    });
  }

  async function sendOnce(target: SmtpTarget, host: Host, message: WireMessage): Promise<{ attempt: Attempt; dropped: boolean }> {
    const session = await acquire(target, host);
    const reused = session.sent > 0;
    const outcome = await transmit(session, message);
    const tls = tlsOf(session.connection);
    if (outcome.ok) {
      release(target, host, session);
      return { attempt: { ok: true, response: outcome.response, tls }, dropped: false };
    }
    const { error } = outcome;
    if (REFUSED.has(String(error.code)) && error.responseCode !== 421 && !session.connection.destroyed) {
      // The server refused this message; the session itself is fine once reset.
      await new Promise<void>((reset) =>
        session.connection.reset((resetErr) => {
          if (resetErr) end(session, false);
          reset();
        }),
      );
    } else if (!session.ended) end(session, false);
    release(target, host, session);
    // A reused session the server had already closed fails before any reply: not the message's fault.
    return { attempt: { ...attemptFromError(error), tls }, dropped: reused && error.responseCode === undefined && !REFUSED.has(String(error.code)) };
  }

  return {
    async send(target, message) {
      if (closed) return attemptFromError(closedError());
      const host = hostOf(target.key);
      try {
        const first = await sendOnce(target, host, message);
        return first.dropped ? (await sendOnce(target, host, message)).attempt : first.attempt;
      } catch (err) {
        return attemptFromError(err);
      }
    },
    close() {
      closed = true;
      for (const host of hosts.values()) {
        for (const session of host.idle) end(session, true);
        host.idle = [];
        for (const next of host.waiting.splice(0)) next(closedError());
      }
      hosts.clear();
    },
  };
}
