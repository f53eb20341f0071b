import { SMTPServer } from 'smtp-server';
import type { Ctx } from '../context.js';

export interface InboundListener {
  address: string;
  close(): Promise<void>;
}

/**
 * Postmill's inbound SMTP listener. It never relays: a recipient is accepted only when
 * `acceptsRecipient` says the address belongs to one of the projects' domains.
 */
export async function startInbound(app: Ctx, acceptsRecipient: (address: string) => boolean): Promise<InboundListener> {
  const server = new SMTPServer({
    name: app.config.hostname,
    banner: 'Postmill',
    authOptional: true,
    disabledCommands: ['AUTH'],
    size: 40 * 1024 * 1024,
    logger: false,
    onRcptTo(address, _session, callback) {
      if (acceptsRecipient(address.address)) return callback();
      const err = new Error('5.7.1 Relaying denied: recipient domain is not served here') as Error & { responseCode: number };
      err.responseCode = 550;
      callback(err);
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => callback());
    },
  });
  server.on('error', (err) => app.log.warn('smtp listener error', { error: err.message }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(app.config.smtp.port, app.config.smtp.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.server.address();
  const port = typeof bound === 'object' && bound ? bound.port : app.config.smtp.port;
  return {
    address: `${app.config.smtp.host}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
