import { createSecureContext, type SecureContext } from 'node:tls';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { noteSeen } from './eventually.js';

export interface SinkMessage {
  mailFrom: string;
  rcptTo: string[];
  raw: Buffer;
  /** The EHLO/HELO name the client gave. */
  helo: string;
  /** Whether the session was upgraded with STARTTLS. */
  secure: boolean;
}

/** An answer for one recipient; `null`, or a code below 400, accepts it. */
export type RecipientAnswer = { code: number; message: string } | null;

export interface SinkOptions {
  /** Require AUTH PLAIN or LOGIN with these credentials. */
  auth?: { user: string; pass: string };
  /** Offer STARTTLS, with smtp-server's built-in self-signed certificate for tests (or `certificates`). */
  tls?: boolean;
  /** The certificate shown to a client that names this server (SNI, the MX host name); others get `default`, else the built-in one. */
  certificates?: { default?: { key: string; cert: string }; byName?: Record<string, { key: string; cert: string }> };
  /** Hide STARTTLS from EHLO; defaults to `!tls`. */
  hideSTARTTLS?: boolean;
  /** Listen here instead of 127.0.0.1 and a free port (a second MX host on delivery.port, at another loopback address). */
  listen?: { host: string; port: number };
  /** Close a client's session after this long without a command (smtp-server's socketTimeout). */
  idleTimeoutMs?: number;
}

export interface SmtpSink {
  port: number;
  readonly messages: SinkMessage[];
  /** Decides the answer to each RCPT TO; later calls replace the decider. */
  onRecipient(decide: (rcpt: string) => RecipientAnswer): void;
  /** Messages to recipients `match` accepts get their answer (and are kept) only once the returned function is called. */
  hold(match: (rcpt: string) => boolean): () => void;
  /** Resolves once `count` messages have arrived, rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs: number): Promise<SinkMessage[]>;
  /** Connections accepted since the start. */
  readonly connections: number;
  /** Sessions ended since the start (by either side). */
  readonly closed: number;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';

/** Reads `byName` at each handshake: a test may give a host its certificate after the sink started. */
function certificateByName(byName: Record<string, { key: string; cert: string }>) {
  const contexts = new Map<string, SecureContext>();
  return (name: string, done: (err: Error | null, context?: SecureContext) => void) => {
    const pem = byName[name.toLowerCase()];
    if (!pem) return done(null);
    const key = `${name}\n${pem.cert}`;
    if (!contexts.has(key)) contexts.set(key, createSecureContext(pem));
    done(null, contexts.get(key));
  };
}
/** Connections a client leaves open are cut after this long on close. */
const CLOSE_TIMEOUT_MS = 500;

function smtpError(answer: { code: number; message: string }): Error {
  return Object.assign(new Error(answer.message), { responseCode: answer.code });
}

/** An SMTP server on loopback that keeps every message it accepts, for delivery tests. */
export async function startSmtpSink(options: SinkOptions = {}): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  const waiters = new Set<() => void>();
  let decide: (rcpt: string) => RecipientAnswer = () => null;
  const holds: { match: (rcpt: string) => boolean; released: Promise<void> }[] = [];
  let connections = 0;
  let closed = 0;
  const { auth, tls = false } = options;

  const authOptions: SMTPServerOptions = auth
    ? {
        authMethods: ['PLAIN', 'LOGIN'],
        allowInsecureAuth: !tls,
        onAuth(credentials, _session, callback) {
          if (credentials.username === auth.user && credentials.password === auth.pass) {
            callback(null, { user: auth.user });
          } else {
            callback(Object.assign(new Error('Invalid credentials'), { responseCode: 535 }));
          }
        },
      }
    : { authOptional: true, disabledCommands: ['AUTH'] };

  const server = new SMTPServer({
    ...authOptions,
    name: 'sink.test',
    logger: false,
    disableReverseLookup: true,
    hideSTARTTLS: options.hideSTARTTLS ?? !tls,
    ...(options.certificates?.default ?? {}),
    ...(options.certificates?.byName ? { SNICallback: certificateByName(options.certificates.byName) } : {}),
    closeTimeout: CLOSE_TIMEOUT_MS,
    ...(options.idleTimeoutMs ? { socketTimeout: options.idleTimeoutMs } : {}),
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onClose() {
      closed++;
    },
    onRcptTo(address, _session, callback) {
      const answer = decide(address.address);
      callback(answer && answer.code >= 400 ? smtpError(answer) : null);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        const { mailFrom, rcptTo } = session.envelope;
        for (const h of holds) if (rcptTo.some((rcpt) => h.match(rcpt.address))) await h.released;
        messages.push({
          mailFrom: mailFrom ? mailFrom.address : '',
          rcptTo: rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks),
          helo: session.hostNameAppearsAs,
          secure: session.secure,
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.listen?.port ?? 0, options.listen?.host ?? HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Errors of single sessions (a client hanging up) must not crash the test run.
  server.on('error', () => undefined);
  const bound = server.server.address();
  if (!bound || typeof bound === 'string') throw new Error('SMTP sink has no TCP address');

  /** Notes what a wait that reads the sink saw: its counts and the recipients of the messages so far (described only if the wait fails). */
  const noteState = () => {
    const seen = { connections, closed, received: messages.length };
    noteSeen(() => ({ ...seen, recipients: messages.slice(0, seen.received).map((m) => m.rcptTo.join(',')) }));
  };
  return {
    port: bound.port,
    get messages() {
      noteState();
      return messages;
    },
    onRecipient(fn) {
      decide = fn;
    },
    hold(match) {
      let release = () => {};
      holds.push({ match, released: new Promise<void>((resolve) => (release = resolve)) });
      return release;
    },
    get connections() {
      noteState();
      return connections;
    },
    get closed() {
      noteState();
      return closed;
    },
    waitFor(count, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (messages.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(messages.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`SMTP sink got ${messages.length} of ${count} messages within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
