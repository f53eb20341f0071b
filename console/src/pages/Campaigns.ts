// What the Campaigns pages share: the API's Campaign, its stats and audience count, the cache keys
// of a project's campaigns, and how an audience reads in a sentence.
import type { FilterCondition } from '../ui/filterModel';
import type { TemplateType } from './Templates';

export type CampaignStatus = 'DRAFT' | 'SCHEDULED' | 'SENDING' | 'SENT' | 'CANCELLED';
export const CAMPAIGN_STATUSES: CampaignStatus[] = ['DRAFT', 'SCHEDULED', 'SENDING', 'SENT', 'CANCELLED'];
export type AudienceType = 'ALL' | 'SEGMENT' | 'FILTERED';

/** The filter engine's condition, as the segment builder edits it. */
export type { FilterCondition };

export interface Campaign {
  id: string;
  name: string;
  description: string | null;
  subject: string;
  previewText: string | null;
  body: string;
  from: string;
  fromName: string | null;
  replyTo: string | null;
  type: TemplateType;
  status: CampaignStatus;
  audienceType: AudienceType;
  segmentId: string | null;
  audienceCondition: FilterCondition | null;
  scheduledFor: string | null;
  totalRecipients: number;
  sentCount: number;
  deliveredCount: number;
  bouncedCount: number;
  suppressedCount: number;
  sentAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface CampaignPage {
  data: Campaign[];
  page: number;
  totalPages: number;
  total: number;
}

export interface CampaignStats {
  status: CampaignStatus;
  totalRecipients: number;
  sentCount: number;
  queuedCount: number;
  deferredCount: number;
  deliveredCount: number;
  bouncedCount: number;
  suppressedCount: number;
  openedCount: number;
  clickedCount: number;
}

/** POST /campaigns/audience-count: who a send reaches now, and who it leaves out. */
export interface AudienceCount {
  recipients: number;
  unsubscribed: number;
  suppressed: number;
  matching: number;
}

/** The audience as a campaign carries it (and as the count route takes it). */
export interface Audience {
  audienceType: AudienceType;
  segmentId: string | null;
  audienceCondition: FilterCondition | null;
  type: TemplateType;
}

export interface SegmentChoice {
  id: string;
  name: string;
}

/** Every query about the project's campaigns starts with this key: a change invalidates them all. */
export const campaignsKey = (projectId: string | undefined) => ['campaigns', projectId] as const;

/** The project's segments, for choosing an audience and naming it. */
export const segmentsKey = (projectId: string | undefined) => ['segments', projectId, 'choices'] as const;

export function audienceLabel(a: Pick<Campaign, 'audienceType' | 'segmentId'>, segments: SegmentChoice[] | undefined): string {
  if (a.audienceType === 'ALL') return 'All contacts';
  if (a.audienceType === 'FILTERED') return 'A filter';
  const segment = segments?.find((s) => s.id === a.segmentId);
  return segment ? `Segment ${segment.name}` : 'A segment';
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;
