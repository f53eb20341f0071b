import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
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
import { escapeHtml } from '../render/render.js';
import { checkAuth, type AuthVerdicts, type Verdict } from './verdicts.js';
import { parseEmailAddress } from '../addresses/email.js';
import { newEmailId } from '../emails/ids.js';
import type { Dns } from '../dns/resolver.js';

const addresses = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address ?? '')).filter(Boolean);

/** What email.received tells of the message itself; `reason` says why it holds no content when the message could not be read. */
interface Content {
  fromAddress: string;
  fromName: string | null;
  fromHeader: string;
  to: string | null;
  replyTo: string | null;
  subject: string;
  body: string;
  hasContent: boolean;
  messageId: string | null;
  date: number | null;
  reason?: string;
}

function contentOf(parsed: ParsedMail, msg: InboundMessage): Content {
  const body = typeof parsed.html === 'string' ? parsed.html : parsed.text ? `<pre>${escapeHtml(parsed.text)}</pre>` : '';
  return {
    fromAddress: addresses(parsed.from)[0] ?? msg.mailFrom,
    fromName: parsed.from?.value[0]?.name || null,
    fromHeader: parsed.from?.text ?? '',
    to: addresses(parsed.to)[0] ?? null,
    replyTo: addresses(parsed.replyTo)[0] ?? null,
    subject: (parsed.subject ?? '').replace(/[\r\n]+/g, ' ').slice(0, 998),
    body,
    hasContent: body.trim() !== '' || (parsed.attachments?.length ?? 0) > 0,
    messageId: parsed.messageId ?? null,
    date: parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date.getTime() : null,
  };
}

/** A message that cannot be read is still received: what the envelope says, no content, and why. */
const unreadable = (msg: InboundMessage, reason: string): Content => ({
  fromAddress: msg.mailFrom,
  fromName: null,
  fromHeader: '',
  to: null,
  replyTo: null,
  subject: '',
  body: '',
  hasContent: false,
  messageId: null,
  date: null,
  reason,
});

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

interface ReceiveOptions {
  autoReply: boolean;
  startedAt: number;
}

/**
 * Mail to a verified domain: the sender becomes (or stays) a contact, the message an INBOUND email
 * record, and email.received carries every field of the spec with SPF, DKIM and DMARC verdicts.
 * A message the parser refuses (too many parts, an oversized header block) is recorded without content.
 */
export async function receive(core: Core, dns: Dns, msg: InboundMessage, opts: ReceiveOptions): Promise<void> {
  const content = await simpleParser(msg.raw, { skipImageLinks: true, maxHtmlLengthToParse: 5 * 1024 * 1024 }).then(
    (parsed) => contentOf(parsed, msg),
    (err: unknown) => unreadable(msg, `The message could not be parsed: ${reasonOf(err)}`),
  );
  const { spamd, clamd } = core.config.scanners;
  const [verdicts, spam, virus] = await Promise.all([
    checkAuth(msg.raw, { ip: msg.remoteIp, helo: msg.helo, sender: msg.mailFrom, mta: core.config.hostname, dns }),
    spamd ? spamVerdict(spamd, msg.raw) : ('DISABLED' as const),
    clamd ? virusVerdict(clamd, msg.raw) : ('DISABLED' as const),
  ]);
  recordReceived(core, msg, content, { ...verdicts, spamVerdict: spam, virusVerdict: virus }, opts);
}

/** The last resort when processing failed for good: the message is recorded as received, unread, with the reason. */
export function receiveUnprocessed(core: Core, msg: InboundMessage, reason: string, startedAt: number): void {
  const failed = 'PROCESSING_FAILED' as const;
  const verdicts = { spfVerdict: failed, dkimVerdict: failed, dmarcVerdict: failed, spamVerdict: failed, virusVerdict: failed };
  recordReceived(core, msg, unreadable(msg, reason), verdicts, { autoReply: false, startedAt });
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
