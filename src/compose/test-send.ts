// Test sends (campaigns and templates): one message to one address, marked and left out of
// everything a real send counts.
import { randomUUID } from 'node:crypto';
import { findContactByEmail } from '../contacts/store.js';
import type { Core } from '../core.js';
import { newEmailId } from '../emails/ids.js';
import { refuseSuppressed } from '../suppressions/policy.js';
import type { MessageContent } from './content.js';
import { composeMessages, storeMessage } from './pipeline.js';
import type { Pools } from '../threads/pool.js';
import type { ComposeOps } from './compose-ops.js';

export const TEST_SUBJECT_PREFIX = '[TEST] ';

/**
 * One test message of `content` to `email`: `[TEST]` before the subject, untracked, tied to no
 * campaign or template (so no count or statistic sees it). Rendered for the project's contact of
 * that address when there is one, else for a stand-in with no data that is never stored. A
 * suppressed address gets no test of content it would not get for real.
 */
export async function sendTestMessage(core: Core, threads: Pools<ComposeOps>, content: MessageContent, email: string): Promise<{ emailId: string; to: string }> {
  const test: MessageContent = { ...content, subject: TEST_SUBJECT_PREFIX + content.subject, tracked: false, campaignId: null, templateId: null };
  refuseSuppressed(core, content.projectId, email, { messageType: content.type, sourceType: content.source });
  const known = findContactByEmail(core.db, content.projectId, email);
  const now = core.clock.now();
  const contact = known ?? { id: randomUUID(), projectId: content.projectId, email, subscribed: true, data: {}, createdAt: now, updatedAt: now };
  const emailId = newEmailId(now);
  const [composed] = await composeMessages(core, threads, test, [{ recipient: { contact, oneOff: {}, name: null }, emailId }], Infinity);
  core.bus.tx(() => storeMessage(core, test, { contactId: known?.id ?? null, email }, emailId, composed!));
  return { emailId, to: email };
}

/** The answer of a test-send route (schema TestSendResult). */
export const testSendAnswer = (sent: { emailId: string; to: string }) => ({ success: true as const, data: sent, message: `Test email sent to ${sent.to}` });
