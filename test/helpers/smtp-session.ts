// A raw SMTP session for tests that need what a mail library will not do: over-long lines, idle
// connections, a chosen source address, AUTH by hand.
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';

export interface SmtpReply {
  code: number;
  /** Every line of the reply, joined by newlines. */
  text: string;
}

export interface SmtpSession {
  greeting: SmtpReply;
  /** Sends one command line and answers its reply. */
  command(line: string): Promise<SmtpReply>;
  /** Writes bytes as they are (no line end added), waiting for the socket to take them. */
  write(data: string | Buffer): Promise<void>;
  /** The next reply the server sends. */
  reply(timeoutMs?: number): Promise<SmtpReply>;
  /** STARTTLS and the TLS handshake (the daemon's certificate is self-signed). */
  startTls(): Promise<void>;
  /** AUTH PLAIN as `user` with `pass`, after STARTTLS. */
  auth(pass: string, user?: string): Promise<SmtpReply>;
  /** Resolves once the server closed the connection. */
  closed: Promise<void>;
  close(): void;
}

export interface SessionOptions {
  /** The source address (any of 127.0.0.0/8 on Linux). */
  localAddress?: string;
  timeoutMs?: number;
}

/** Opens a session to the listener on `port` and reads its greeting (which may be a refusal such as 421). */
export async function openSession(port: number, opts: SessionOptions = {}): Promise<SmtpSession> {
  const timeoutMs = opts.timeoutMs ?? 8000;
  let socket: Socket | TLSSocket = netConnect({ host: '127.0.0.1', port, ...(opts.localAddress ? { localAddress: opts.localAddress } : {}) });
  let buffered = '';
  let waiting: ((reply: SmtpReply) => void) | null = null;
  let ended = false;
  let onClosed!: () => void;
  const closed = new Promise<void>((r) => (onClosed = r));
  const replies: SmtpReply[] = [];

  const parse = () => {
    for (;;) {
      const lines = buffered.split('\r\n');
      const last = lines.findIndex((l) => /^\d{3} /.test(l) || /^\d{3}$/.test(l));
      if (last === -1) return;
      const reply = { code: Number(lines[last]!.slice(0, 3)), text: lines.slice(0, last + 1).join('\n') };
      buffered = lines.slice(last + 1).join('\r\n');
      if (waiting) {
        const w = waiting;
        waiting = null;
        w(reply);
      } else replies.push(reply);
    }
  };
  const listen = (s: Socket | TLSSocket) => {
    s.setEncoding('latin1');
    s.on('data', (d: string) => {
      buffered += d;
      parse();
    });
    s.on('error', () => {});
    s.on('close', () => {
      ended = true;
      onClosed();
    });
  };
  listen(socket);

  const reply = (ms = timeoutMs) =>
    new Promise<SmtpReply>((resolve, reject) => {
      const ready = replies.shift();
      if (ready) return resolve(ready);
      if (ended) return reject(new Error('the server closed the connection without a reply'));
      const timer = setTimeout(() => reject(new Error(`no reply within ${ms} ms; received so far: ${JSON.stringify(buffered.slice(0, 200))}`)), ms);
      waiting = (r) => {
        clearTimeout(timer);
        resolve(r);
      };
      void closed.then(() => {
        clearTimeout(timer);
        if (waiting) reject(new Error('the server closed the connection without a reply'));
      });
    });
  // a full buffer waits for drain, or for the close that means no drain will come (the daemon hung up)
  const write = (data: string | Buffer) =>
    new Promise<void>((resolve) => {
      if (socket.destroyed || socket.write(data)) return resolve();
      socket.once('drain', () => resolve());
      socket.once('close', () => resolve());
    });
  const command = async (line: string) => {
    await write(line + '\r\n');
    return reply();
  };

  const greeting = await reply();
  const session: SmtpSession = {
    greeting,
    command,
    write,
    reply,
    closed,
    async startTls() {
      const ready = await command('STARTTLS');
      if (ready.code !== 220) throw new Error(`STARTTLS refused: ${ready.text}`);
      const plain = socket;
      plain.removeAllListeners('data');
      plain.removeAllListeners('close');
      socket = await new Promise<TLSSocket>((resolve, reject) => {
        const secure = tlsConnect({ socket: plain, rejectUnauthorized: false }, () => resolve(secure));
        secure.once('error', reject);
      });
      listen(socket);
      const ehlo = await command('EHLO client.test');
      if (ehlo.code !== 250) throw new Error(`EHLO after STARTTLS refused: ${ehlo.text}`);
    },
    auth: (pass, user = 'postmill') => command(`AUTH PLAIN ${Buffer.from(`\0${user}\0${pass}`).toString('base64')}`),
    close: () => socket.destroy(),
  };
  return session;
}

/** A session past EHLO (and, for submission, STARTTLS). */
export async function openEhloSession(port: number, opts: SessionOptions & { tls?: boolean } = {}): Promise<SmtpSession> {
  const session = await openSession(port, opts);
  if (session.greeting.code !== 220) throw new Error(`greeting: ${session.greeting.text}`);
  const ehlo = await session.command('EHLO client.test');
  if (ehlo.code !== 250) throw new Error(`EHLO: ${ehlo.text}`);
  if (opts.tls) await session.startTls();
  return session;
}
