import { iso } from '../clock.js';
import type { Core } from '../core.js';
import { upsertContact } from '../contacts/service.js';
import { domainOfAddress } from '../addresses/domain-name.js';
import { unpackedMessage } from '../emails/packing.js';
import { insertEmail, newEmailRecord } from '../emails/store.js';
import { EMAIL_EVENTS } from '../bus/catalogue.js';
import { markProcessed, type InboundMessage } from './store.js';
import { virusVerdict } from './scanners/clamd.js';
import { spamVerdict } from './scanners/spamd.js';
import { unreadable, type Content } from './content.js';
import type { AuthVerdicts, Verdict } from './verdicts.js';
import { parseEmailAddress } from '../addresses/email.js';
import { newEmailId } from '../emails/ids.js';

interface ReceiveOptions {
  autoReply: boolean;
  startedAt: number;
}

/**
 * Mail to a verified domain: the sender becomes (or stays) a contact, the message an INBOUND email
 * record, and email.received carries every field of the spec with SPF, DKIM and DMARC verdicts
 * and the scanners' (which read the message over their sockets). A message that could not be read
 * is recorded without content, with the reason.
 */
export async function receive(core: Core, msg: InboundMessage, content: Content, auth: AuthVerdicts, opts: ReceiveOptions): Promise<void> {
  const { spamd, clamd } = core.config.scanners;
  const [spam, virus] = await Promise.all([
    spamd ? spamVerdict(spamd, msg.raw) : ('DISABLED' as const),
    clamd ? virusVerdict(clamd, msg.raw) : ('DISABLED' as const),
  ]);
  recordReceived(core, msg, content, { ...auth, spamVerdict: spam, virusVerdict: virus }, opts);
}

/** The last resort when processing failed for good: the message is recorded as received, unread, with the reason. */
export function receiveUnprocessed(core: Core, msg: InboundMessage, reason: string, startedAt: number): void {
  const failed = 'PROCESSING_FAILED' as const;
  const verdicts = { spfVerdict: failed, dkimVerdict: failed, dmarcVerdict: failed, spamVerdict: failed, virusVerdict: failed };
  recordReceived(core, msg, unreadable(msg.mailFrom, reason), verdicts, { autoReply: false, startedAt });
}

type Verdicts = AuthVerdicts & { spamVerdict: Verdict; virusVerdict: Verdict };

function recordReceived(core: Core, msg: InboundMessage, content: Content, verdicts: Verdicts, opts: ReceiveOptions): void {
  const messageId = content.messageId ?? `<${msg.id}@${core.config.hostname}>`;
  const now = core.clock.now();
  const emailId = newEmailId(now);
  core.bus.tx(() => {
    // the sender as the API would store it (punycode domain): one contact however the address was written
    const sender = parseEmailAddress(content.fromAddress)?.address;
    const contact = sender ? upsertContact(core, msg.projectId, { email: sender }, false).contact : null;
    insertEmail(
      core.db,
      newEmailRecord(
        {
          id: emailId,
          projectId: msg.projectId,
          contactId: contact?.id ?? null,
          templateId: null,
          campaignId: null,
          sourceType: 'INBOUND',
          messageType: 'TRANSACTIONAL',
          to: msg.rcptTo[0] ?? '',
          from: content.fromAddress,
          fromName: content.fromName,
          replyTo: content.replyTo,
          subject: content.subject,
          senderDomain: domainOfAddress(msg.rcptTo[0] ?? '') ?? '',
          messageId,
          status: 'delivered',
        },
        now,
      ),
      unpackedMessage(msg.raw),
    );
    core.bus.emit({
      projectId: msg.projectId,
      name: EMAIL_EVENTS.received,
      contactId: contact?.id ?? null,
      emailId,
      data: {
        messageId,
        from: content.fromAddress,
        fromHeader: content.fromHeader,
        to: content.to ?? msg.rcptTo[0] ?? '',
        subject: content.subject,
        timestamp: iso(content.date ?? msg.createdAt),
        recipients: msg.rcptTo,
        hasContent: content.hasContent,
        body: content.body,
        ...(content.bodyTruncated ? { bodyTruncated: true } : {}),
        spamVerdict: verdicts.spamVerdict,
        virusVerdict: verdicts.virusVerdict,
        spfVerdict: verdicts.spfVerdict,
        dkimVerdict: verdicts.dkimVerdict,
        dmarcVerdict: verdicts.dmarcVerdict,
        processingTimeMillis: Math.round(performance.now() - opts.startedAt),
        ...(opts.autoReply ? { isAutoReply: true } : {}),
        ...(content.reason ? { reason: content.reason } : {}),
      },
      at: now,
    });
    // The email record now holds the raw message; the inbound row keeps only what happened.
    markProcessed(core.db, msg.id, opts.autoReply ? 'auto-reply' : 'received', emailId, now, { dropRaw: true });
  });
}
