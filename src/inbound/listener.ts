import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import type { Core } from '../core.js';
import { headerSectionRefusal } from './header-section.js';
import { PerClientConnections } from '../net/connection-caps.js';
import { listenSmtp } from '../net/listen.js';
import type { DataBudget } from '../net/data-budget.js';
import { withMessage } from '../net/smtp-data.js';
import { SmtpReply } from '../net/smtp-reply.js';
import { routeRecipient, type InboundRoute } from './route.js';
import { acceptInbound } from './accept.js';
import { tlsMaterial } from './tls.js';

const MAX_RECIPIENTS = 100;

export interface InboundListener {
  address: string;
  close(): Promise<void>;
}

/** Per-session state: the project the accepted recipients belong to. */
const routes = new WeakMap<SMTPServerSession, InboundRoute>();

/**
 * Postmill's inbound SMTP listener: accepts mail only for its projects' domains (never a relay),
 * stores each message and its processing job in one transaction, then answers 250. Messages being
 * received share `budget` with the submission listener.
 */
export async function startInbound(core: Core, budget: DataBudget): Promise<InboundListener> {
  const { smtp } = core.config;
  const perClient = new PerClientConnections(smtp.maxPerClient);
  const tls = await tlsMaterial(core);
  const server = new SMTPServer({
    name: core.config.hostname,
    banner: 'Postmill',
    // Every lookup goes through dns.servers; the client's PTR is not needed for any verdict.
    disableReverseLookup: true,
    key: tls.key,
    cert: tls.cert,
    authOptional: true,
    disabledCommands: ['AUTH'],
    size: smtp.maxSize,
    maxClients: smtp.maxClients,
    socketTimeout: 60_000,
    closeTimeout: 2_000, // on shutdown, clients still connected get this long
    logger: false,
    onConnect: (session, callback) => perClient.admit(session, callback),
    onClose: (session) => perClient.release(session),
    onMailFrom(_address, session, callback) {
      routes.delete(session);
      callback();
    },
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) return callback(new SmtpReply(452, '4.5.3 Too many recipients'));
      const route = routeRecipient(core.db, address.address);
      if (!route) return callback(new SmtpReply(550, '5.7.1 Relaying denied: this server does not accept mail for that domain'));
      const current = routes.get(session);
      if (current && current.projectId !== route.projectId) {
        return callback(new SmtpReply(451, '4.5.3 Recipients of another domain: please send them in a separate message'));
      }
      routes.set(session, route);
      callback();
    },
    onData(stream, session, callback) {
      const limits = { maxBytes: smtp.maxSize, budget, client: { listener: 'smtp' as const, remoteAddress: session.remoteAddress } };
      withMessage(stream, limits, (raw) => {
        const route = routes.get(session);
        if (!route) throw new SmtpReply(503, '5.5.1 No valid recipients');
        const refusal = headerSectionRefusal(raw);
        if (refusal) throw new SmtpReply(552, `5.3.4 ${refusal}`);
        return acceptInbound(core, {
          projectId: route.projectId,
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          remoteIp: session.remoteAddress,
          helo: session.hostNameAppearsAs ?? '',
          raw,
        });
      }).then(
        (id) => callback(null, `2.0.0 Queued as ${id}`),
        (err: unknown) => {
          // a refusal is answered as it is; anything else was a failure to store
          if (err instanceof SmtpReply) return callback(err);
          core.log.error('inbound message not stored', { error: String(err) });
          callback(new SmtpReply(451, '4.3.0 Temporary failure, try again later'));
        },
      );
    },
  });
  const { port } = await listenSmtp(server, smtp.port, smtp.host, 'smtp', (err) => core.log.warn('smtp listener error', { error: err.message }));
  return {
    address: `${smtp.host}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
