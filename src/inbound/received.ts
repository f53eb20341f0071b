import { randomUUID } from 'node:crypto';
import { simpleParser, type AddressObject } from 'mailparser';
import { iso } from '../clock.js';
import type { Ctx } from '../context.js';
import { upsertContact } from '../contacts/service.js';
import { domainOfAddress } from '../domains/name.js';
import { unpackedMessage } from '../emails/packing.js';
import { insertEmail, newEmailRecord } from '../emails/store.js';
import { EMAIL_EVENTS } from '../events/catalogue.js';
import { markProcessed, type InboundMessage } from './store.js';
import { virusVerdict } from './scanners/clamd.js';
import { spamVerdict } from './scanners/spamd.js';
import { escapeHtml } from '../templates/render.js';
import { checkAuth } from './verdicts.js';

const EMAIL = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;

const addresses = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address ?? '')).filter(Boolean);

/**
 * Mail to a verified domain: the sender becomes (or stays) a contact, the message an INBOUND email
 * record, and email.received carries every field of the spec with SPF, DKIM and DMARC verdicts.
 */
export async function receive(ctx: Ctx, msg: InboundMessage, opts: { autoReply: boolean; startedAt: number }): Promise<void> {
  const parsed = await simpleParser(msg.raw, { skipImageLinks: true, maxHtmlLengthToParse: 5 * 1024 * 1024 });
  const { spamd, clamd } = ctx.config.scanners;
  const [verdicts, spamVerdictOf, virusVerdictOf] = await Promise.all([
    checkAuth(msg.raw, { ip: msg.remoteIp, helo: msg.helo, sender: msg.mailFrom, mta: ctx.config.hostname, dns: ctx.dns }),
    spamd ? spamVerdict(spamd, msg.raw) : ('DISABLED' as const),
    clamd ? virusVerdict(clamd, msg.raw) : ('DISABLED' as const),
  ]);
  const fromAddress = addresses(parsed.from)[0] ?? msg.mailFrom;
  const to = addresses(parsed.to);
  const subject = (parsed.subject ?? '').replace(/[\r\n]+/g, ' ').slice(0, 998);
  const body = typeof parsed.html === 'string' ? parsed.html : parsed.text ? `<pre>${escapeHtml(parsed.text)}</pre>` : '';
  const messageId = parsed.messageId ?? `<${msg.id}@${ctx.config.hostname}>`;
  const now = ctx.clock.now();
  const emailId = randomUUID();
  ctx.bus.tx(() => {
    const contact = EMAIL.test(fromAddress) ? upsertContact(ctx, msg.projectId, { email: fromAddress }, false).contact : null;
    insertEmail(
      ctx.db,
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
          from: fromAddress,
          fromName: parsed.from?.value[0]?.name || null,
          replyTo: addresses(parsed.replyTo)[0] ?? null,
          subject,
          senderDomain: domainOfAddress(msg.rcptTo[0] ?? '') ?? '',
          messageId,
          status: 'delivered',
        },
        now,
      ),
      unpackedMessage(msg.raw),
    );
    ctx.bus.emit({
      projectId: msg.projectId,
      name: EMAIL_EVENTS.received,
      contactId: contact?.id ?? null,
      emailId,
      data: {
        messageId,
        from: fromAddress,
        fromHeader: parsed.from?.text ?? '',
        to: to[0] ?? msg.rcptTo[0] ?? '',
        subject,
        timestamp: iso(parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date.getTime() : msg.createdAt),
        recipients: msg.rcptTo,
        hasContent: body.trim() !== '' || (parsed.attachments?.length ?? 0) > 0,
        body,
        spamVerdict: spamVerdictOf,
        virusVerdict: virusVerdictOf,
        ...verdicts,
        processingTimeMillis: Math.round(performance.now() - opts.startedAt),
        ...(opts.autoReply ? { isAutoReply: true } : {}),
      },
      at: now,
    });
    // The email record now holds the raw message; the inbound row keeps only what happened.
    markProcessed(ctx.db, msg.id, opts.autoReply ? 'auto-reply' : 'received', emailId, now, { dropRaw: true });
  });
}
