import { SMTPServer } from 'smtp-server';
import type { Core } from '../core.js';
import { headerSectionRefusal } from '../inbound/header-section.js';
import { tlsMaterial } from '../inbound/tls.js';
import { LoginDeadline, PerClientConnections } from '../net/connection-caps.js';
import { listenSmtp } from '../net/listen.js';
import type { DataBudget } from '../net/data-budget.js';
import { withMessage } from '../net/smtp-data.js';
import { SmtpReply } from '../net/smtp-reply.js';
import { looksLikeKey } from '../projects/keys.js';
import { findKeyOwner, getProject } from '../projects/store.js';
import { MAX_REQUEST_BYTES } from '../send/service.js';
import { FailedLogins, type LoginRefusal } from './failed-logins.js';
import { submitMessage, type SubmissionDeps } from './submit.js';

/** What schema/send.json allows per request; refused at RCPT rather than after the whole message. */
const MAX_RECIPIENTS = 50;

/** The 454 of a login refused before its credentials were looked at. */
function loginRefusal({ scope, retryInSeconds }: LoginRefusal): SmtpReply {
  return scope === 'client'
    ? new SmtpReply(454, `4.7.0 Too many failed logins from your address; try again in ${retryInSeconds} seconds`)
    : new SmtpReply(454, `4.7.0 Too many failed logins at this server; try again in ${retryInSeconds} seconds (clients that logged in within the last 30 days are not held)`);
}

/** The one user name; the password is a project's secret key, which names the project. */
export const SUBMISSION_USER = 'postmill';

export interface SubmissionListener {
  address: string;
  close(): Promise<void>;
}

/**
 * SMTP submission (RFC 6409) for applications that speak only SMTP: STARTTLS, then AUTH PLAIN or
 * LOGIN as `postmill` with a secret key; each message goes through the /v1/send pipeline, its bytes
 * held in `budget` (shared with the inbound listener) until the pipeline has taken it.
 */
export async function startSubmission(core: Core, deps: SubmissionDeps, port: number, budget: DataBudget): Promise<SubmissionListener> {
  const { host } = core.config.submission;
  const tls = await tlsMaterial(core);
  const failedLogins = new FailedLogins(core.clock);
  // The operator's smtp.maxSize bounds submitted mail too, within the send pipeline's own limit.
  const maxSize = Math.min(core.config.smtp.maxSize, MAX_REQUEST_BYTES);
  const perClient = new PerClientConnections(core.config.smtp.maxPerClient);
  const loginDeadline = new LoginDeadline(() => server, core.config.submission.loginTimeout * 1000);
  const server: SMTPServer = new SMTPServer({
    name: core.config.hostname,
    banner: 'Postmill submission',
    key: tls.key,
    cert: tls.cert,
    // AUTH is offered only after STARTTLS (smtp-server answers 538 before it); MAIL needs AUTH.
    allowInsecureAuth: false,
    authOptional: false,
    authMethods: ['PLAIN', 'LOGIN'],
    disableReverseLookup: true,
    size: maxSize,
    maxClients: core.config.smtp.maxClients,
    socketTimeout: 60_000,
    closeTimeout: 2_000,
    logger: false,
    onConnect(session, callback) {
      perClient.admit(session, (err) => {
        if (!err) loginDeadline.start(session);
        callback(err);
      });
    },
    onClose(session) {
      loginDeadline.stop(session);
      perClient.release(session);
    },
    onAuth(auth, session, callback) {
      // the refusal, the key's lookup and the count run in one turn: concurrent logins are judged one by one
      const ip = session.remoteAddress;
      const refused = failedLogins.refusal(ip);
      if (refused) return callback(loginRefusal(refused));
      const owner = auth.password && looksLikeKey(auth.password) ? findKeyOwner(core.db, auth.password) : null;
      if (auth.username !== SUBMISSION_USER || owner?.kind !== 'secret') {
        failedLogins.failed(ip);
        return callback(new SmtpReply(535, `5.7.8 Authentication failed: the user is "${SUBMISSION_USER}", the password a project's secret key`));
      }
      failedLogins.succeeded(ip);
      loginDeadline.stop(session);
      callback(null, { user: owner.project.id });
    },
    onMailFrom(_address, session, callback) {
      const project = getProject(core.db, String(session.user));
      if (!project || project.disabled) return callback(new SmtpReply(550, '5.7.1 This project is disabled'));
      callback();
    },
    onRcptTo(_address, session, callback) {
      if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) return callback(new SmtpReply(452, `4.5.3 At most ${MAX_RECIPIENTS} recipients per message`));
      callback();
    },
    onData(stream, session, callback) {
      const limits = { maxBytes: maxSize, budget, client: { listener: 'submission' as const, remoteAddress: session.remoteAddress } };
      withMessage(stream, limits, (raw) => {
        // a header section no MIME parser takes is refused here, as the inbound listener does
        const refusal = headerSectionRefusal(raw);
        if (refusal) throw new SmtpReply(552, `5.3.4 ${refusal}`);
        return submitMessage(
          core,
          deps,
          String(session.user),
          raw,
          session.envelope.rcptTo.map((r) => r.address),
        );
      }).then(
        (reply) => callback(null, reply),
        (err: Error) => callback(err),
      );
    },
  });
  const bound = await listenSmtp(server, port, host, 'submission', (err) => core.log.warn('submission listener error', { error: err.message }));
  return {
    address: `${host}:${bound.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
