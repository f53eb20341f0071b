import nodemailer, { type Mail, type SMTPPoolOptions, type SMTPPoolSentMessageInfo } from 'nodemailer';

/** A message as it goes on the wire: envelope plus the finished (signed) bytes. */
export interface WireMessage {
  envelope: { from: string; to: string[] };
  raw: Buffer;
}

/**
 * Pooled SMTP connections per server, so consecutive messages to one host share a session.
 * A pool nobody used for `idleMs` is closed with its connections.
 */
export interface SmtpPools {
  /** Sends over the pool named `key`, creating it from `options` on first use. */
  send(key: string, options: SMTPPoolOptions, message: WireMessage): Promise<SMTPPoolSentMessageInfo>;
  /** Closes every pool; a connection in the middle of a message finishes it first. */
  close(): void;
}

interface Pool {
  transport: Mail<SMTPPoolSentMessageInfo, SMTPPoolOptions>;
  busy: number;
  idleTimer: NodeJS.Timeout | null;
}

export function createSmtpPools(idleMs: number): SmtpPools {
  const pools = new Map<string, Pool>();
  let closed = false;

  function acquire(key: string, options: SMTPPoolOptions): Pool {
    let pool = pools.get(key);
    if (!pool) {
      pool = { transport: nodemailer.createTransport({ ...options, pool: true }), busy: 0, idleTimer: null };
      pools.set(key, pool);
    }
    if (pool.idleTimer) clearTimeout(pool.idleTimer);
    pool.idleTimer = null;
    pool.busy++;
    return pool;
  }

  function release(key: string, pool: Pool): void {
    pool.busy--;
    if (pool.busy > 0 || closed) return;
    pool.idleTimer = setTimeout(() => {
      pools.delete(key);
      pool.transport.close();
    }, idleMs);
    pool.idleTimer.unref();
  }

  return {
    async send(key, options, message) {
      if (closed) throw new Error('outbound SMTP connections are closed');
      const pool = acquire(key, options);
      try {
        return await pool.transport.sendMail({ envelope: message.envelope, raw: message.raw });
      } finally {
        release(key, pool);
      }
    },
    close() {
      closed = true;
      for (const pool of pools.values()) {
        if (pool.idleTimer) clearTimeout(pool.idleTimer);
        pool.transport.close();
      }
      pools.clear();
    },
  };
}
