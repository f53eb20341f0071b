import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { assemble } from '../../src/assembly.js';
import { ShiftableClock } from '../../src/clock.js';
import { composeMessage } from '../../src/compose/mime.js';
import { loadConfig } from '../../src/config.js';
import { packMessage } from '../../src/emails/packing.js';
import { newEmailRecord } from '../../src/emails/store.js';
import type { Lane } from '../../src/jobs/types.js';
import { queueEmail } from '../../src/outbound/queue.js';
import { openStore } from '../../src/store/db.js';
import type { MailEnv } from './mail-env.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * Queues emails the way the campaign fan-out will, through queueEmail with a lane, straight into
 * the store of the stopped daemon (for the daemon's project unless another is named), from
 * news@<senderDomain> (a verified domain of the project; sender.test unless named).
 */
export async function queueDirect(env: MailEnv, lane: Lane, recipients: string[], projectId = env.daemon.project.id, senderDomain = 'sender.test'): Promise<void> {
  const db = openStore(join(env.daemon.dataDir, 'store'));
  const parts = assemble({ db, clock: new ShiftableClock(), config: loadConfig(null, {}), log: quiet });
  const ctx = parts.core;
  const from = `news@${senderDomain}`;
  try {
    ctx.bus.tx(() => {
      for (const to of recipients) {
        const id = randomUUID();
        const composed = composeMessage({
          emailId: id,
          hostname: 'mx.postmill.test',
          date: new Date(),
          from: { email: from, name: null },
          to: { email: to, name: null },
          replyTo: null,
          subject: 'Campaign',
          html: '<p>News</p>',
          attachments: [],
          headers: {},
          unsubscribe: null,
        });
        const email = newEmailRecord(
          {
            id,
            projectId,
            contactId: null,
            templateId: null,
            campaignId: null,
            sourceType: lane === 'bulk' ? 'CAMPAIGN' : 'TRANSACTIONAL',
            messageType: 'TRANSACTIONAL',
            to,
            from,
            fromName: null,
            replyTo: null,
            subject: 'Campaign',
            senderDomain,
            messageId: composed.messageId,
            status: 'queued',
          },
          ctx.clock.now(),
        );
        queueEmail(ctx, email, packMessage(composed.raw), lane);
      }
    });
  } finally {
    await parts.close();
    db.close();
  }
}
