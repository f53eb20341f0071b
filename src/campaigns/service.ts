// The campaign rules: content and audience, the state machine (DRAFT -> SCHEDULED -> SENDING ->
// SENT, CANCELLED from SCHEDULED or SENDING), test sends and stats.
import { randomUUID } from 'node:crypto';
import { iso } from '../clock.js';
import type { Core } from '../core.js';
import { assertSender } from '../domains/sender.js';
import { badRequest, conflict, foundOr404 } from '../errors.js';
import { sendTestMessage } from '../compose/test-send.js';
import { withPreheader } from '../compose/preheader.js';
import type { ComposeOps, RenderedMessage } from '../compose/compose-ops.js';
import { previewTemplate } from '../templates/preview.js';
import type { TemplateType } from '../templates/store.js';
import { checkAudience, countAudience } from './audience.js';
import { campaignContent } from './content.js';
import { FANOUT_JOB, type FanoutPayload } from './fanout.js';
import { queueCancel } from './cancel-job.js';
import {
  deleteCampaignRow,
  findCampaignById,
  insertCampaign,
  markSending,
  setCampaignStatus,
  startRound,
  updateCampaign,
  type AudienceType,
  type Campaign,
  type CampaignStatus,
} from './store.js';
import type { Usages } from '../usage/usages.js';
import type { Pools } from '../threads/pool.js';

export interface CampaignInput {
  name: string;
  description?: string | null;
  subject: string;
  body: string;
  from: string;
  fromName?: string | null;
  replyTo?: string | null;
  previewText?: string | null;
  type?: TemplateType;
  audienceType: AudienceType;
  segmentId?: string | null;
  audienceCondition?: Record<string, unknown> | null;
}

const EDITABLE: readonly CampaignStatus[] = ['DRAFT', 'SCHEDULED'];
const CANCELLABLE: readonly CampaignStatus[] = ['SCHEDULED', 'SENDING'];

/** The audience fields as stored: only the one its type uses. The spec's 400 when that one is missing. */
export function audienceOf(input: Pick<CampaignInput, 'audienceType' | 'segmentId' | 'audienceCondition'>): Pick<Campaign, 'audienceType' | 'segmentId' | 'audienceCondition'> {
  if (input.audienceType === 'SEGMENT') {
    if (!input.segmentId) throw badRequest('segmentId is required when audienceType is SEGMENT', 'Pass the id of one of your segments');
    return { audienceType: 'SEGMENT', segmentId: input.segmentId, audienceCondition: null };
  }
  if (input.audienceType === 'FILTERED') {
    if (!input.audienceCondition) throw badRequest('audienceCondition is required when audienceType is FILTERED', 'Pass a FilterCondition');
    return { audienceType: 'FILTERED', segmentId: null, audienceCondition: input.audienceCondition };
  }
  return { audienceType: 'ALL', segmentId: null, audienceCondition: null };
}

/** A campaign with the content of `input`: the parts every write shares. */
function withInput(core: Core, projectId: string, base: Omit<Campaign, keyof CampaignInput | 'audienceCondition'>, input: CampaignInput): Campaign {
  assertSender(core, projectId, input.from);
  const campaign: Campaign = {
    ...base,
    name: input.name,
    description: input.description ?? null,
    subject: input.subject,
    body: input.body,
    from: input.from,
    fromName: input.fromName ?? null,
    replyTo: input.replyTo ?? null,
    previewText: input.previewText || null,
    type: input.type ?? 'MARKETING',
    ...audienceOf(input),
  };
  checkAudience(core, campaign);
  return campaign;
}

const blankCampaign = (projectId: string, now: number): Omit<Campaign, keyof CampaignInput | 'audienceCondition'> => ({
  id: randomUUID(),
  projectId,
  status: 'DRAFT',
  scheduledFor: null,
  sentAt: null,
  sendRound: 0,
  walkedTo: null,
  walked: false,
  pending: 0,
  totalRecipients: 0,
  sentCount: 0,
  deliveredCount: 0,
  openedCount: 0,
  clickedCount: 0,
  bouncedCount: 0,
  complainedCount: 0,
  unsubscribedCount: 0,
  suppressedCount: 0,
  deferredCount: 0,
  createdAt: now,
  updatedAt: now,
});

export function createCampaign(core: Core, projectId: string, input: CampaignInput): Campaign {
  const campaign = withInput(core, projectId, blankCampaign(projectId, core.clock.now()), input);
  insertCampaign(core.db, campaign);
  return campaign;
}

export function getCampaign(core: Core, projectId: string, id: string): Campaign {
  return foundOr404(findCampaignById(core.db, projectId, id), 'Campaign');
}

/** PUT: every field replaced, only before the send started. */
export function replaceCampaign(core: Core, projectId: string, id: string, input: CampaignInput): Campaign {
  return core.bus.tx(() => {
    const existing = getCampaign(core, projectId, id);
    if (!EDITABLE.includes(existing.status)) throw badRequest(`A ${existing.status} campaign cannot be changed`, 'Duplicate it and edit the copy');
    const campaign = withInput(core, projectId, { ...existing, updatedAt: core.clock.now() }, input);
    updateCampaign(core.db, campaign);
    return campaign;
  });
}

/** Refused while sending or while workflow executions started by its emails are active. */
export function deleteCampaign(core: Core, usage: Usages, projectId: string, id: string): void {
  core.bus.tx(() => {
    const campaign = getCampaign(core, projectId, id);
    if (campaign.status === 'SENDING') throw conflict('The campaign is sending', { suggestion: 'Cancel it first' });
    const { activeExecutions } = usage.campaigns.collect(core, projectId, id);
    if (activeExecutions > 0) throw conflict(`${activeExecutions} workflow ${activeExecutions === 1 ? 'execution' : 'executions'} started by this campaign ${activeExecutions === 1 ? 'is' : 'are'} active`, { activeExecutions });
    deleteCampaignRow(core.db, projectId, id);
  });
}

export function duplicateCampaign(core: Core, projectId: string, id: string): Campaign {
  const source = getCampaign(core, projectId, id);
  const copy: Campaign = {
    ...blankCampaign(projectId, core.clock.now()),
    name: `${source.name} (Copy)`.slice(0, 200),
    description: source.description,
    subject: source.subject,
    body: source.body,
    from: source.from,
    fromName: source.fromName,
    replyTo: source.replyTo,
    previewText: source.previewText,
    type: source.type,
    audienceType: source.audienceType,
    segmentId: source.segmentId,
    audienceCondition: source.audienceCondition,
  };
  insertCampaign(core.db, copy);
  return copy;
}

/** `scheduledFor` as the spec takes it: omitted or null is now, anything a date parses from is that date. */
function sendTime(raw: unknown, now: number): number {
  if (raw === undefined || raw === null) return now;
  const at = new Date(raw as string | number).getTime();
  if (Number.isNaN(at)) throw badRequest(`scheduledFor ${JSON.stringify(raw)} is not a date`, 'Use an ISO 8601 date-time such as 2030-01-31T09:00:00Z');
  return at;
}

/**
 * From DRAFT or SCHEDULED: now (SENDING) or at `scheduledFor` (SCHEDULED; a past date sends now).
 * Either way a new round starts and one durable fan-out job is queued for it.
 */
export async function sendCampaign(core: Core, projectId: string, id: string, scheduledFor: unknown): Promise<{ campaign: Campaign; message: string }> {
  const sendable = (campaign: Campaign) => {
    if (EDITABLE.includes(campaign.status)) return campaign;
    throw badRequest(`A ${campaign.status} campaign cannot be sent`, 'Only DRAFT and SCHEDULED campaigns can be sent; duplicate it to send again');
  };
  const counted = sendable(getCampaign(core, projectId, id));
  const at = sendTime(scheduledFor, core.clock.now());
  assertSender(core, projectId, counted.from);
  const total = await countAudience(core, counted);
  if (total === 0) throw badRequest('The audience of this campaign has no recipients', 'Check its audience: only subscribed contacts receive MARKETING and HEADLESS campaigns');
  return core.bus.tx(() => {
    // changed while it was counted (sent, cancelled, edited): the state as it is now decides
    const campaign = sendable(getCampaign(core, projectId, id));
    const now = core.clock.now();
    const later = at > now;
    const round = startRound(core.db, campaign, { status: later ? 'SCHEDULED' : 'SENDING', scheduledFor: later ? at : null, total, now });
    if (!later) markSending(core.db, campaign, now);
    const payload: FanoutPayload = { campaignId: id, round };
    core.jobs.enqueue(FANOUT_JOB, payload, { projectId, runAt: later ? at : now, uniqueKey: `${FANOUT_JOB}:${id}:${round}`, maxAttempts: 100 });
    const message = later ? `Campaign scheduled for ${iso(at)}` : `Campaign is being sent to ${total} recipient${total === 1 ? '' : 's'}`;
    return { campaign: getCampaign(core, projectId, id), message };
  });
}

/**
 * From SCHEDULED or SENDING: batches not yet queued are never queued, emails not yet attempted never
 * are. Answered CANCELLED at once; the unsent emails end failed in a job, a batch at a time.
 */
export function cancelCampaign(core: Core, projectId: string, id: string): Campaign {
  return core.bus.tx(() => {
    const campaign = getCampaign(core, projectId, id);
    if (!CANCELLABLE.includes(campaign.status)) throw badRequest(`A ${campaign.status} campaign cannot be cancelled`, 'Only SCHEDULED and SENDING campaigns can be cancelled');
    setCampaignStatus(core.db, campaign, 'CANCELLED', core.clock.now());
    queueCancel(core, projectId, campaign.id);
    return getCampaign(core, projectId, id);
  });
}

/** One test message to `email` (see sendTestMessage): a suppressed address gets no campaign mail, test or not. */
export async function testCampaign(core: Core, threads: Pools<ComposeOps>, projectId: string, id: string, email: string): Promise<{ emailId: string; to: string }> {
  return sendTestMessage(core, threads, campaignContent(core, getCampaign(core, projectId, id)), email);
}

export interface CampaignPreviewInput {
  subject: string;
  body: string;
  previewText?: string | null;
  contactId?: string;
}

/** A draft rendered for one contact as its send would be (the preview text leading the body), untracked, nothing stored. */
export function previewCampaign(core: Core, threads: Pools<ComposeOps>, projectId: string, input: CampaignPreviewInput): Promise<RenderedMessage> {
  const { subject, contactId } = input;
  return previewTemplate(core.db, threads, projectId, { subject, body: withPreheader(input.body, input.previewText ?? null), ...(contactId ? { contactId } : {}) });
}

const rate = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100);

/**
 * Counters as the triggers keep them; rates in percent (opens, clicks, unsubscribes and complaints
 * of delivered mail, bounces and deliveries of sent mail). With the status, the emails still on their way
 * (queued or being attempted, and deferred) and the suppressed addresses skipped: a send's progress.
 */
export function campaignStats(campaign: Campaign) {
  return {
    status: campaign.status,
    totalRecipients: campaign.totalRecipients,
    sentCount: campaign.sentCount,
    deliveredCount: campaign.deliveredCount,
    openedCount: campaign.openedCount,
    clickedCount: campaign.clickedCount,
    bouncedCount: campaign.bouncedCount,
    complainedCount: campaign.complainedCount,
    unsubscribedCount: campaign.unsubscribedCount,
    queuedCount: campaign.pending - campaign.deferredCount,
    deferredCount: campaign.deferredCount,
    suppressedCount: campaign.suppressedCount,
    openRate: rate(campaign.openedCount, campaign.deliveredCount),
    clickRate: rate(campaign.clickedCount, campaign.deliveredCount),
    bounceRate: rate(campaign.bouncedCount, campaign.sentCount),
    deliveryRate: rate(campaign.deliveredCount, campaign.sentCount),
    unsubscribeRate: rate(campaign.unsubscribedCount, campaign.deliveredCount),
    complaintRate: rate(campaign.complainedCount, campaign.deliveredCount),
  };
}
