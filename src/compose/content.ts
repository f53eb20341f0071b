// What is sent, before any recipient: the same for every recipient of a send, a campaign or a workflow step.
import type { Core } from '../core.js';
import type { MessageType, SourceType } from '../emails/store.js';
import type { ComposeAttachment, Mailbox } from './mime.js';
import { getProject } from '../projects/store.js';

/** The part of the content that composing needs; it crosses to the compose threads as is. */
export interface ComposableContent {
  type: MessageType;
  /** Template sources: `{{variables}}` are rendered per recipient. */
  subject: string;
  html: string;
  from: Mailbox;
  replyTo: string | null;
  headers: Record<string, string>;
  attachments: ComposeAttachment[];
  /** Open and click tracking: decided once for the content (see `isTracked`), not per recipient. */
  tracked: boolean;
  /** One-click unsubscribe headers (and `Precedence: bulk`): marketing content, campaign and workflow mail. */
  listUnsubscribe: boolean;
  projectId: string;
  campaignId: string | null;
}

export interface MessageContent extends ComposableContent {
  /** The verified domain that covers the sender: the bounce domain is `bounces.<senderDomain>`. */
  senderDomain: string;
  templateId: string | null;
  source: Exclude<SourceType, 'INBOUND'>;
}

/** MARKETING and HEADLESS content respects subscription and suppression and carries one-click unsubscribe. */
export const respectsSubscription = (type: MessageType): boolean => type !== 'TRANSACTIONAL';

/** Opens and clicks are tracked for marketing content, and for transactional mail where the project turned it on. */
export function isTracked(core: Core, type: MessageType, projectId: string): boolean {
  return respectsSubscription(type) || getProject(core.db, projectId)?.trackTransactional === true;
}
