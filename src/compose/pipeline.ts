// The one per-recipient pipeline of /v1/send, campaigns and workflow steps: personalise, compose,
// store the email with its message, queue its delivery, emit email.sent. Each caller keeps only its
// own rules (who receives, what a refusal means).
import type { Core } from '../core.js';
import { queueEmail } from '../outbound/queue.js';
import type { Lane } from '../jobs/types.js';
import { newEmailRecord, type Email } from '../emails/store.js';
import { validationFailed } from '../errors.js';
import { MB } from '../http/json-body.js';
import type { StoredComposition } from './mime/stored.js';
import { ThreadTaskError, type Pools } from '../threads/pool.js';
import type { MessageContent } from './content.js';
import { fromWire, type ComposeOps, type TooLargeDetail } from './compose-ops.js';
import { linkSigner } from './links.js';
import { composeInputFor, personalizationFor, type ComposeEnv, type Recipient } from './personalize.js';

/**
 * Heavy: one message this large, or a request's messages together (a large /v1/send, bounded by
 * its total) are personalised and composed on the heavy thread, where they never queue ahead of
 * ordinary sends. A campaign batch of ordinary messages spreads over the compose threads instead.
 */
const HEAVY_BYTES = MB;
/**
 * Recipients of one content per compose-thread task: the content crosses once per chunk and the
 * thread renders, signs the click links and composes each message, so a campaign batch costs the
 * main thread one message to a thread instead of the work of every recipient.
 */
const CHUNK = 50;

export interface Addressed {
  recipient: Recipient;
  /** The id of the email record to be: links and the Message-ID name it. */
  emailId: string;
}

export type Composition = StoredComposition & { subject: string };

const chunks = <T>(items: T[], size: number): T[][] => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

const tooLarge = (size: number, max: number) =>
  validationFailed([
    {
      field: 'body',
      message: `The composed messages are ${size} bytes together; at most ${max / MB} MB per request`,
      code: 'too_big',
      received: `${size} bytes`,
    },
  ]);

/** The fewest bytes a message of this content can have: its HTML and its attachments in base64. */
const smallestMessage = (content: MessageContent) => content.html.length + content.attachments.reduce((n, a) => n + Math.ceil(a.content.length / 3) * 4, 0);

/**
 * Each recipient's message, composed off the main thread. A single ordinary message is rendered
 * here and built on a compose thread; several cross in chunks to the compose threads, which render
 * and build each one; heavy content crosses once to the heavy thread. Refuses (422) before any
 * work when the messages together cannot stay under `maxTotalBytes`, and as soon as they grow past it.
 */
export async function composeMessages(core: Core, threads: Pools<ComposeOps>, content: MessageContent, addressed: Addressed[], maxTotalBytes: number): Promise<Composition[]> {
  const smallest = smallestMessage(content);
  const floor = smallest * addressed.length;
  if (floor > maxTotalBytes) throw tooLarge(floor, maxTotalBytes);
  const heavy = smallest > HEAVY_BYTES || (Number.isFinite(maxTotalBytes) && floor > HEAVY_BYTES);
  const signer = linkSigner(core);
  const env: ComposeEnv = { hostname: core.config.hostname, date: core.clock.now(), signer };
  const personalized = addressed.map((a) => personalizationFor(signer, content, a.recipient, a.emailId));
  if (heavy) {
    try {
      const wires = await threads.heavy.run('composeAll', { content, env, recipients: personalized, maxTotalBytes });
      return wires.map(fromWire);
    } catch (err) {
      if (err instanceof ThreadTaskError) throw tooLarge((err.detail as TooLargeDetail).tooLarge, maxTotalBytes);
      throw err;
    }
  }
  const composed =
    personalized.length === 1
      ? [fromWire(await threads.compose.run('compose', composeInputFor(content, personalized[0]!, env)))]
      : (
          await Promise.all(
            chunks(personalized, CHUNK).map((recipients) => threads.compose.run('composeAll', { content, env, recipients, maxTotalBytes: Number.POSITIVE_INFINITY })),
          )
        )
          .flat()
          .map(fromWire);
  const total = composed.reduce((n, c) => n + c.size, 0);
  if (total > maxTotalBytes) throw tooLarge(total, maxTotalBytes);
  return composed;
}

/** Whom a stored email went to: a contact of the project, or (a campaign's test send) an address alone. */
export interface StoredRecipient {
  contactId: string | null;
  email: string;
}

/**
 * In the caller's transaction: the email record with its message, the delivery job and email.sent.
 * `lane`: bulk for campaign audiences (delivered behind transactional mail, at delivery.bulkPerSecond).
 */
export function storeMessage(core: Core, content: MessageContent, to: StoredRecipient, emailId: string, composed: Composition, lane: Lane = 'transactional'): Email {
  const email = newEmailRecord(
    {
      id: emailId,
      projectId: content.projectId,
      contactId: to.contactId,
      templateId: content.templateId,
      campaignId: content.campaignId,
      sourceType: content.source,
      messageType: content.type,
      to: to.email,
      from: content.from.email,
      fromName: content.from.name,
      replyTo: content.replyTo,
      subject: composed.subject,
      senderDomain: content.senderDomain,
      messageId: composed.messageId,
      status: 'queued',
    },
    core.clock.now(),
  );
  queueEmail(core, email, composed.message, lane);
  return email;
}
